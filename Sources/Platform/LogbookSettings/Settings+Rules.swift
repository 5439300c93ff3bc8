// SPDX-License-Identifier: MIT
public import LogbookConfig
internal import LogbookCore
internal import LogbookRecords

extension Settings {
    /// Reads `[[rule]]`: `name` and the fields of ``RuleRecord``, checked by the same rules as
    /// `logbook rules add` (``ClassificationRule``); errors name `rule[i].key`. Places and
    /// vehicles are checked against the journal by the readers: ``checkRuleReferences(places:vehicles:)``.
    mutating func readRules(_ r: inout ConfigReader) throws(ConfigError) {
        var names: Set<String> = []
        for (path, table) in try r.tables("rule") {
            var fields = TableFields(path: path, table: table, file: r.fileName)
            let name = try fields.requiredString("name")
            guard EntryField.isID(name) else {
                throw ConfigError(key: "\(path).name", file: r.fileName, problem: "must be an id: 1-32 of a-z, 0-9, _ and -, starting with a letter or digit")
            }
            guard names.insert(name).inserted else {
                throw ConfigError(key: "\(path).name", file: r.fileName, problem: "duplicate rule name \"\(name)\"")
            }
            var stored: [(String, JSONValue)] = []
            for field in RuleRecord.schema {
                guard let value = fields.value(field.name) else { continue }
                let json: JSONValue
                switch value {
                case .string(let s): json = .string(s)
                case .integer(let i): json = .number(Double(i))
                case .double(let d): json = .number(d)
                case .bool(let b): json = .bool(b)
                case .array, .table: throw ConfigError(key: "\(path).\(field.name)", file: r.fileName, problem: "expected a value, found \(value.typeName)")
                }
                do {
                    stored.append((field.name, try field.normalized(json)))
                } catch {
                    throw ConfigError(key: "\(path).\(field.name)", file: r.fileName, problem: error.message)
                }
            }
            try fields.rejectUnknown()
            let record: RuleRecord
            do {
                record = try RuleRecord(json: .object(stored))
            } catch {
                throw ConfigError(key: "\(path).class", file: r.fileName, problem: "is required (\(TripClassRecord.classes.joined(separator: ", ")))")
            }
            do {
                rules.append(try ClassificationRule(name: name, record: record, fromConfig: true))
            } catch {
                throw ConfigError(key: "\(path).\(error.field)", file: r.fileName, problem: error.message)
            }
        }
    }

    /// Checks that every `[[rule]]` names known places and vehicles (the journal's named
    /// places; the registry's vehicles). - Throws: ``ConfigError`` naming `rule[i].key`.
    public func checkRuleReferences(places: Set<String>, vehicles: Set<String>) throws(ConfigError) {
        for (i, rule) in rules.enumerated() where rule.fromConfig {
            for (key, place) in [("start_place", rule.record.startPlace), ("end_place", rule.record.endPlace)] {
                if let place, !places.contains(place) {
                    let known = places.isEmpty ? "none" : places.sorted().joined(separator: ", ")
                    throw ConfigError(key: "rule[\(i)].\(key)", file: configFile, problem: "no named place has id \"\(place)\" (known: \(known))")
                }
            }
            if let v = rule.record.vehicle, !vehicles.contains(v) {
                let known = vehicles.isEmpty ? "none" : vehicles.sorted().joined(separator: ", ")
                throw ConfigError(key: "rule[\(i)].vehicle", file: configFile, problem: "no vehicle has id \"\(v)\" (known: \(known))")
            }
        }
    }
}
