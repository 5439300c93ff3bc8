// SPDX-License-Identifier: MIT
internal import LogbookConfig
public import LogbookCore
internal import LogbookRecords

/// One `[[source]]` entry: something in the car that tells the daemon a trip begins or ends.
public struct SourceConfiguration: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// `/sys/class/power_supply/NAME/online` (ignition-switched supply, power HAT, USB power).
        case powerSupply = "power_supply"
        /// The trip spans the daemon's life (systemd starts it on ignition).
        case service
        /// Trips start and stop on the car's motion, from fixes.
        case motion
        /// BlueZ `Device1.Connected` of the car's head unit.
        case bluetooth
        /// An ignition-sense GPIO line through libgpiod (opto-coupler or divider), debounced.
        case gpio
        /// A device node or USB vendor:product that is present only with the ignition on
        /// (an OBD adapter, a USB GPS), through sd-device.
        case device
        /// The car itself through an ELM327 OBD-II adapter: engine on/off, VIN, odometer,
        /// fuel level, fault codes, battery voltage.
        case obd
    }

    public var kind: Kind
    /// Name in trip reasons (`power:NAME`); the supply name or MAC by default.
    public var name: String
    /// The vehicle this source stands for (an id of a `[[vehicle]]`).
    public var vehicle: String?
    /// power_supply: the supply's directory name under `/sys/class/power_supply`.
    public var supply: String?
    /// power_supply: the sysfs root (tests use a fake tree).
    public var sysfsRoot = "/sys"
    /// power_supply: seconds between reads of `online`.
    public var pollInterval: Double = 1
    /// bluetooth: the device's MAC address.
    public var mac: String?
    /// bluetooth: a D-Bus address instead of the system bus (tests).
    public var busAddress: String?
    /// device: a device node (`/dev/ttyUSB0`, a `/dev/serial/by-id/…` link) or `vvvv:pppp`.
    public var match: String?
    /// device: the udev subsystem to watch besides `usb` and `tty` (e.g. `video4linux`).
    public var subsystem: String?
    /// gpio: the chip (name, number, label or `/dev` path).
    public var chip = "gpiochip0"
    /// gpio: the line offset on the chip.
    public var line: Int?
    /// gpio: a low line means "on".
    public var activeLow = false
    /// gpio: milliseconds the level must hold before it counts.
    public var debounceMilliseconds = 200
    /// obd: a serial adapter's device (`/dev/ttyUSB0`, `/dev/rfcomm0`) and its baud rate…
    public var device: String?
    public var baud = 38_400
    /// …or a Wi-Fi adapter's `HOST:PORT`.
    public var address: String?
    /// obd: below this battery voltage while parked, `on_low_battery` runs (volts).
    public var lowBatteryVolts = 11.8

    public init(kind: Kind, name: String, vehicle: String? = nil) {
        self.kind = kind
        self.name = name
        self.vehicle = vehicle
    }

    /// The signal this source sends when it turns on or off.
    public func signal(isOn: Bool) -> VehicleSignal {
        let kind: VehicleSignal.Kind =
            switch self.kind {
            case .powerSupply: .power
            case .service: .service
            case .motion: .motion
            case .bluetooth: .bluetooth
            case .gpio: .gpio
            case .device: .device
            case .obd: .obd
            }
        return VehicleSignal(kind: kind, name: name, vehicle: vehicle, isOn: isOn)
    }
}

extension Settings {
    /// Reads `[[vehicle]]` and `[[source]]`; every error names `vehicle[i].key` / `source[i].key`.
    mutating func readVehiclesAndSources(_ r: inout ConfigReader) throws(ConfigError) {
        for (path, t) in try r.tables("vehicle") {
            let vehicle = try Self.vehicle(path: path, table: t, file: r.fileName)
            guard !vehicles.contains(where: { $0.id == vehicle.id }) else {
                throw ConfigError(key: "\(path).id", file: r.fileName, problem: "duplicate vehicle id \"\(vehicle.id)\"")
            }
            if let vin = vehicle.record.vin, let other = vehicles.first(where: { $0.record.vin == vin }) {
                throw ConfigError(key: "\(path).vin", file: r.fileName, problem: "vehicle \"\(other.id)\" has VIN \(vin) already")
            }
            vehicles.append(vehicle)
        }
        for (path, t) in try r.tables("source") {
            var fields = TableFields(path: path, table: t, file: r.fileName)
            let typeName = try fields.requiredString("type")
            guard let kind = SourceConfiguration.Kind(rawValue: typeName) else {
                let names = SourceConfiguration.Kind.allCases.map(\.rawValue).joined(separator: ", ")
                throw ConfigError(key: "\(path).type", file: r.fileName, problem: "expected one of \(names), got \"\(typeName)\"")
            }
            var s = SourceConfiguration(kind: kind, name: kind.rawValue)
            // Checked against the vehicle registry by logbookd (a vehicle may be known only to
            // the journal): ``Settings/checkVehicleReferences(known:)``.
            s.vehicle = try fields.string("vehicle")
            switch kind {
            case .powerSupply:
                s.supply = try fields.requiredString("supply")
                s.sysfsRoot = try fields.string("sysfs_root") ?? "/sys"
                s.pollInterval = try fields.double("poll_interval_s", in: 0.01...60) ?? 1
                s.name = s.supply ?? s.name
            case .bluetooth:
                s.mac = try fields.requiredString("mac").uppercased()
                s.busAddress = try fields.string("bus")
                s.name = s.mac ?? s.name
            case .gpio:
                s.chip = try fields.string("chip") ?? "gpiochip0"
                s.line = try fields.requiredInteger("line", in: 0...65_535)
                s.activeLow = try fields.bool("active_low") ?? false
                s.debounceMilliseconds = try fields.integer("debounce_ms", in: 0...60_000) ?? 200
                s.name = "ignition"
            case .device:
                let m = try fields.requiredString("match")
                let ids = m.split(separator: ":", omittingEmptySubsequences: false)
                let usb = ids.count == 2 && ids.allSatisfy { $0.count == 4 && $0.allSatisfy(\.isHexDigit) }
                guard m.hasPrefix("/dev/") || usb else {
                    throw ConfigError(key: "\(path).match", file: r.fileName, problem: "expected a /dev path or a USB vendor:product like \"10c4:ea60\", got \"\(m)\"")
                }
                s.match = m
                s.subsystem = try fields.string("subsystem")
                s.name = m
            case .obd:
                try s.readOBD(&fields, path: path, file: r.fileName)
            case .service:
                s.name = "logbookd"
            case .motion:
                break
            }
            if let n = try fields.string("name") { s.name = n }
            try fields.rejectUnknown()
            sources.append(s)
        }
    }
}

extension Settings {
    /// Reads `[[privacy_zone]]` (name, lat, lon, radius_m) into the trip engine's settings;
    /// errors name `privacy_zone[i].key`.
    mutating func readPrivacyZones(_ r: inout ConfigReader) throws(ConfigError) {
        var zones: [PrivacyZone] = []
        var names: Set<String> = []
        for (path, t) in try r.tables("privacy_zone") {
            var fields = TableFields(path: path, table: t, file: r.fileName)
            let name = try fields.requiredString("name")
            guard !name.isEmpty, names.insert(name).inserted else {
                throw ConfigError(key: "\(path).name", file: r.fileName, problem: name.isEmpty ? "must not be empty" : "duplicate zone name \"\(name)\"")
            }
            guard let lat = try fields.double("lat", in: -90...90) else {
                throw ConfigError(key: "\(path).lat", file: r.fileName, problem: "missing (degrees, -90…90)")
            }
            guard let lon = try fields.double("lon", in: -180...180) else {
                throw ConfigError(key: "\(path).lon", file: r.fileName, problem: "missing (degrees, -180…180)")
            }
            guard let radius = try fields.double("radius_m", in: 10...50_000) else {
                throw ConfigError(key: "\(path).radius_m", file: r.fileName, problem: "missing (metres, 10…50000)")
            }
            try fields.rejectUnknown()
            zones.append(PrivacyZone(name: name, latitude: lat, longitude: lon, radius: radius))
        }
        trip.privacyZones = zones
    }
}
