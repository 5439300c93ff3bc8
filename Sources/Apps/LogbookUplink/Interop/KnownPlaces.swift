// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookJournal
import LogbookRecords

/// The named places (`place` entries) as the journal told the uplink: merged fields and when
/// each was first added, kept with the feed's saved state so that a restart past the entries
/// still knows them. A removed place is kept: logbookd journals a leave for a place removed
/// while the car is in it.
struct KnownPlaces {
    struct Place: Equatable {
        var fields: JSONValue
        /// When the place was first added (the entry's `recordedAt`), if the entry said.
        var created: GPSTime?
        var record: PlaceRecord? { try? PlaceRecord(json: fields) }
    }

    private(set) var places: [String: Place] = [:]

    subscript(id: String) -> Place? { places[id] }

    /// Folds in a `place` entry (other types are ignored).
    mutating func apply(_ e: UserEntry) {
        guard e.type == PlaceRecord.type else { return }
        var p = places[e.subject] ?? Place(fields: .object([]), created: nil)
        if e.action != .void {
            if case .object(let new) = e.fields, case .object(var merged) = p.fields {
                for (k, v) in new {
                    if let i = merged.firstIndex(where: { $0.0 == k }) { merged[i].1 = v } else { merged.append((k, v)) }
                }
                p.fields = .object(merged)
            }
        }
        if p.created == nil, e.action == .add, let ns = e.recordedAt { p.created = GPSTime(nanoseconds: ns) }
        places[e.subject] = p
    }

    var json: JSONValue {
        .array(places.sorted { $0.key < $1.key }.map { id, p in
            .object([("id", .string(id)), ("fields", p.fields), ("created", p.created.map { .number(Double($0.wholeSeconds)) } ?? .null)])
        })
    }

    init() {}

    init(json: JSONValue) {
        guard case .array(let items) = json else { return }
        for item in items {
            guard let id = item["id"]?.stringValue, let fields = item["fields"] else { continue }
            let created = item["created"]?.doubleValue.map { GPSTime(nanoseconds: Int64($0) * 1_000_000_000) }
            places[id] = Place(fields: fields, created: created)
        }
    }
}
