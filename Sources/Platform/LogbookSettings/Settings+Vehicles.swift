// SPDX-License-Identifier: MIT
public import LogbookConfig
public import LogbookCore
internal import LogbookRecords

extension Settings {
    /// The configured vehicle with `id`, as the live state names it.
    public func vehicle(_ id: String?) -> Vehicle? {
        id.flatMap { id in vehicles.first { $0.id == id }?.vehicle }
    }

    /// Checks that every `[[source]] vehicle` and `trip.default_vehicle` names a vehicle in
    /// `known` (the registry: the configured vehicles and those the journal holds).
    /// - Throws: ``ConfigError`` naming the key.
    public func checkVehicleReferences(known: Set<String>) throws(ConfigError) {
        for (i, source) in sources.enumerated() {
            if let v = source.vehicle, !known.contains(v) {
                throw ConfigError(key: "source[\(i)].vehicle", file: configFile, problem: Self.unknown(v, known))
            }
        }
        if let v = trip.defaultVehicle, !known.contains(v) {
            throw ConfigError(key: "trip.default_vehicle", file: configFile, problem: Self.unknown(v, known))
        }
    }

    private static func unknown(_ id: String, _ known: Set<String>) -> String {
        "no vehicle has id \"\(id)\" (known: \(known.isEmpty ? "none" : known.sorted().joined(separator: ", ")))"
    }

    /// One `[[vehicle]]` table: `id` and the fields of ``VehicleRecord``, checked by the same
    /// rules as `logbook vehicles add` and the web app.
    static func vehicle(path: String, table: [String: ConfigValue], file: String?) throws(ConfigError) -> ConfiguredVehicle {
        var fields = TableFields(path: path, table: table, file: file)
        let id = try fields.requiredString("id")
        guard EntryField.isID(id) else {
            throw ConfigError(key: "\(path).id", file: file, problem: "must be an id: 1-32 of a-z, 0-9, _ and -, starting with a letter or digit")
        }
        var stored: [(String, JSONValue)] = []
        for field in VehicleRecord.schema {
            guard let value = fields.value(field.name) else { continue }
            let json: JSONValue
            switch value {
            case .string(let s): json = .string(s)
            case .integer(let i): json = .number(Double(i))
            case .double(let d): json = .number(d)
            case .bool(let b): json = .bool(b)
            case .array, .table: throw ConfigError(key: "\(path).\(field.name)", file: file, problem: "expected a value, found \(value.typeName)")
            }
            do {
                stored.append((field.name, try field.normalized(json)))
            } catch {
                throw ConfigError(key: "\(path).\(field.name)", file: file, problem: error.message)
            }
        }
        try fields.rejectUnknown()
        do {
            return ConfiguredVehicle(id: id, record: try VehicleRecord(json: .object(stored)))
        } catch {
            throw ConfigError(key: path, file: file, problem: error.message)
        }
    }
}
