// SPDX-License-Identifier: MIT
internal import LogbookConfig
internal import LogbookCore

extension SourceConfiguration {
    /// The baud rates an `obd` source's serial adapter may be set to (those Linux has a
    /// termios constant for).
    public static let obdBaudRates = [9600, 19200, 38400, 57600, 115_200, 230_400, 460_800, 500_000, 921_600, 1_000_000, 2_000_000]

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
            throw fail(
                transport == "tcp" ? "address" : "device",
                "an obd source needs device (a USB or Bluetooth adapter's /dev path) or address (a Wi-Fi adapter's HOST:PORT)")
        case (.some, .some):
            throw fail("address", "give device or address, not both")
        case (let d?, nil):
            guard transport != "tcp" else { throw fail("transport", "tcp needs address, not device") }
            guard d.hasPrefix("/"), d.count > 1 else { throw fail("device", "must be an absolute path like /dev/ttyUSB0 or /dev/rfcomm0, got \"\(d)\"") }
            if let b = baudRate {
                guard Self.obdBaudRates.contains(b) else {
                    throw fail("baud", "expected one of \(Self.obdBaudRates.map(String.init).joined(separator: ", ")), got \(b)")
                }
                baud = b
            }
        case (nil, let a?):
            guard transport != "serial" else { throw fail("transport", "serial needs device, not address") }
            // The port is required: adapters listen on 35000 or 23, there is no standard one.
            guard a.contains(":"), HostPort(parsing: a, defaultPort: 1) != nil, !a.hasSuffix("]") else {
                throw fail("address", "expected HOST:PORT like 192.168.0.10:35000, got \"\(a)\"")
            }
            if baudRate != nil { throw fail("baud", "only for a serial device") }
        }
    }
}
