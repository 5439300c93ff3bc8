// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookJournal
import LogbookRecords

/// The `trip_corrected` event on the events topic: published for every `trip.*` entry (void,
/// restore, assign, merge, split, classify) in place of the plain `entry` event, with the
/// entry's members, what was done, and the state of every trip it touched after it — so a
/// consumer need not fold corrections itself.
///
/// ```json
/// {"device_id":"lb-…","seq":812,"type":"trip_corrected","correction":"split","trip":12,
///  "entry_type":"trip.split","action":"add","subject":"12","fields":{"at":"…","new_trip":31},
///  "origin":"web","recorded_at":"…","trips":[{"trip":12,"vehicle":"golf","driver":null,
///  "voided":false,"void_reason":null,"merged_into":null,"split_from":null},{"trip":31,…,"split_from":12}]}
/// ```
enum TripCorrectionEvent {
    /// The event for `entry` with `ledger` already holding it; nil when it is not a `trip.*` entry.
    static func json(_ entry: JournalEntry, base: JSONValue, ledger: VehicleLedger) -> JSONValue? {
        guard case .entry(let u) = entry.record, u.type.hasPrefix("trip."), case .object(let members) = base,
            let number = UInt64(u.subject)
        else { return nil }
        var touched = [TripID(number)]
        switch u.type {
        case TripMergeRecord.type: if let m = try? TripMergeRecord(json: u.fields) { touched.append(m.with) }
        case TripSplitRecord.type: if let s = try? TripSplitRecord(json: u.fields), let n = s.newTrip { touched.append(n) }
        default: break
        }
        let fold = ledger.corrections
        let trips: [JSONValue] = touched.compactMap { id in
            guard let t = fold.trip(id) else { return nil }
            return .object([
                ("trip", .number(Double(id.rawValue))), ("vehicle", .string(t.vehicle)), ("driver", .string(t.driver)),
                ("voided", .bool(t.voided)), ("void_reason", .string(t.voidReason)),
                ("merged_into", t.mergedInto.map { .number(Double($0.rawValue)) } ?? .null),
                ("split_from", t.splitFrom.map { .number(Double($0.rawValue)) } ?? .null),
            ])
        }
        var out: [(String, JSONValue)] = []
        for (key, value) in members {
            if key == "type" {
                out += [("type", .string("trip_corrected")), ("correction", .string(correction(u))), ("trip", .number(Double(number)))]
            } else {
                out.append((key, value))
            }
        }
        return .object(out + [("trips", .array(trips))])
    }

    /// `void`, `restore`, `assign`, `merge`, `split`, `classify` (or the type's last part).
    static func correction(_ u: UserEntry) -> String {
        switch (u.type, u.action) {
        case (TripVoidRecord.type, .void): "restore"
        case (TripVoidRecord.type, _): "void"
        case (TripClassRecord.type, _): "classify"
        default: String(u.type.split(separator: ".").last ?? "correction")
        }
    }
}
