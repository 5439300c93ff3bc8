// SPDX-License-Identifier: MIT
internal import LogbookConfig
internal import LogbookCore
internal import LogbookOBD

extension SourceConfiguration {
    /// Where an `obd` source's adapter is (nil for other kinds).
    var obdEndpoint: OBDEndpoint? {
        guard kind == .obd else { return nil }
        if let device { return .serial(device: device, baud: baud) }
        return address.flatMap(OBDEndpoint.tcp(parsing:))
    }

    /// `[[source]] type = "obd"`: `device` (+ `baud`) or `address`, an optional `transport`
    /// (`serial`, `tcp`) that must agree, `low_battery_v`. A device that does not exist yet
    /// is fine (the source waits for it); one that is not an absolute path is not.
    mutating func readOBD(_ fields: inout TableFields, path: String, file: String?) throws(ConfigError) {
        func fail(_ key: String, _ problem: String) -> ConfigError { ConfigError(key: "\(path).\(key)", file: file, problem: problem) }
        let transport = try fields.string("transport")
        device = try fields.string("device")
        address = try fields.string("address")
        let baudRate = try fields.integer("baud", in: 1...4_000_000)
        lowBatteryVolts = try fields.double("low_battery_v", in: 6...16) ?? 11.8
        name = "obd"
        if let transport, transport != "serial", transport != "tcp" {
            throw fail("transport", "expected serial (device = …) or tcp (address = …), got \"\(transport)\"")
        }
        switch (device, address) {
        case (nil, nil):
            throw fail(transport == "tcp" ? "address" : "device", "an obd source needs device (a USB or Bluetooth adapter's /dev path) or address (a Wi-Fi adapter's HOST:PORT)")
        case (.some, .some):
            throw fail("address", "give device or address, not both")
        case (let d?, nil):
            guard transport != "tcp" else { throw fail("transport", "tcp needs address, not device") }
            guard d.hasPrefix("/"), d.count > 1 else { throw fail("device", "must be an absolute path like /dev/ttyUSB0 or /dev/rfcomm0, got \"\(d)\"") }
            if let b = baudRate {
                guard OBDEndpoint.baudRates.contains(b) else {
                    throw fail("baud", "expected one of \(OBDEndpoint.baudRates.map(String.init).joined(separator: ", ")), got \(b)")
                }
                baud = b
            }
        case (nil, let a?):
            guard transport != "serial" else { throw fail("transport", "serial needs device, not address") }
            guard OBDEndpoint.tcp(parsing: a) != nil else { throw fail("address", "expected HOST:PORT like 192.168.0.10:35000, got \"\(a)\"") }
            if baudRate != nil { throw fail("baud", "only for a serial device") }
        }
    }
}

extension DaemonConfiguration {
    /// `[[vehicle]] vin` (validated: 17 characters, a North American check digit; one vehicle
    /// per VIN) and `tank_l` (litres, for the fill-ups an OBD source estimates).
    mutating func readVehicleHardware(_ fields: inout TableFields, id: String, path: String, file: String?) throws(ConfigError) {
        if let text = try fields.string("vin") {
            switch VIN.parse(text) {
            case .success(let vin):
                if let other = vehicleVINs.first(where: { $0.value == vin.text })?.key {
                    throw ConfigError(key: "\(path).vin", file: file, problem: "vehicle \"\(other)\" has VIN \(vin.text) already")
                }
                vehicleVINs[id] = vin.text
            case .failure(let problem):
                let why = problem == .checkDigit ? "its check digit (position 9) does not match" : problem == .length ? "not 17 characters" : "I, O and Q and signs are never in a VIN"
                throw ConfigError(key: "\(path).vin", file: file, problem: "\"\(text)\" is not a valid VIN: \(why)")
            }
        }
        if let tank = try fields.double("tank_l", in: 1...2000) { vehicleTanks[id] = tank }
    }

    /// The vehicle whose `vin` is `vin`, if one has it.
    func vehicle(withVIN vin: String) -> String? { vehicleVINs.first { $0.value == vin }?.key }
}
