// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookRecords

/// How `logbook rules` shows rules and what they change.
enum RuleText {
    /// `office-weekdays: start home, end office, mon-fri, 06:00-10:00 → business "Office" (config)`.
    static func line(_ rule: ClassificationRule) -> String {
        let r = rule.record
        var conditions: [String] = []
        if let p = r.startPlace { conditions.append("start \(p)") }
        if let p = r.endPlace { conditions.append("end \(p)") }
        if let d = r.weekdays { conditions.append(d) }
        if let t = r.time { conditions.append(t) }
        if let v = r.vehicle { conditions.append("vehicle \(v)") }
        if let d = r.driver { conditions.append("driver \(d)") }
        if let km = r.minimumKm { conditions.append("≥ \(NumberText.fixed(km, places: km == km.rounded() ? 0 : 1)) km") }
        var action = r.tripClass
        if let p = r.purpose { action += " \"\(p)\"" }
        if let p = r.partner { action += ", partner \(p)" }
        if let d = r.destination { action += ", to \(d)" }
        return "\(rule.name): \(conditions.joined(separator: ", ")) → \(action) (\(rule.fromConfig ? "config" : "journal"))"
    }

    static func json(_ rule: ClassificationRule) -> JSONValue {
        guard case .object(let fields) = rule.record.fields else { return .null }
        return .object([("name", .string(rule.name)), ("source", .string(rule.fromConfig ? "config" : "journal"))] + fields)
    }

    /// One line per change (`trip 12 (Mon 2026-11-02 07:40): unclassified → business by office-weekdays`),
    /// then a count; or a JSON array.
    static func printChanges(_ changes: [RuleBook.Change], _ context: RuleApplier.Context, json: Bool, verb: String) {
        if json {
            print(JSONValue.array(changes.map { c in
                .object([
                    ("trip", .number(Double(c.trip.rawValue))), ("rule", .string(c.rule)), ("class", .string(c.classification.tripClass)),
                    ("previous", c.previous.map { .string($0.tripClass) } ?? .null),
                ])
            }).serialized)
            return
        }
        for c in changes {
            let when = context.overviews[c.trip]?.startedAt.map(TripFormat.dateTime) ?? "?"
            print("trip \(c.trip) (\(when)): \(c.previous?.tripClass ?? "unclassified") → \(c.classification.tripClass) by \(c.rule)")
        }
        print("\(changes.count) trip\(changes.count == 1 ? "" : "s") \(verb).")
    }
}
