// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookImport
import LogbookJournal
import LogbookStore

/// What the index says about a file before it is imported: whether its content was imported
/// already (the `import` entry with its SHA-256), and which of its trips overlap trips the
/// journal holds (recorded, or imported from another file).
enum ImportChecks {
    /// The `import` entry of a file with this content, if any: (its sequence, its file name).
    static func previousImport(_ index: TripIndex, hash: String) throws -> (UInt64, String)? {
        var found: (UInt64, String)?
        try index.forEachEntry(type: "import", subject: hash) { e in
            found = (e.sequence, e.entry.fields["file"]?.stringValue ?? "?")
            return false
        }
        return found
    }

    /// For each imported trip overlapping a kept trip in the index (same vehicle, or either
    /// without one): its index and the trip numbers it overlaps.
    static func overlaps(_ index: TripIndex, _ trips: [ImportedTrip]) throws -> [Int: [TripID]] {
        let kept = trips.filter { !$0.discarded && $0.startedAt != nil && $0.endedAt != nil }
        guard let first = kept.compactMap(\.startedAt).min(), let last = kept.compactMap(\.endedAt).max() else { return [:] }
        // Trips that start up to two days before the first imported one can still reach into it.
        let query = TripQuery(since: GPSTime(nanoseconds: first.nanoseconds - 2 * 86_400 * 1_000_000_000), until: GPSTime(nanoseconds: last.nanoseconds + 1), includeDiscarded: false)
        var recorded: [(TripID, String?, Int64, Int64)] = []
        try index.forEachTrip(matching: query) { t in
            if let s = t.startedAt {
                recorded.append((t.id, t.vehicleID, s.nanoseconds, (t.endedAt ?? GPSTime(nanoseconds: .max)).nanoseconds))
            }
            return true
        }
        recorded.sort { $0.2 < $1.2 }
        var out: [Int: [TripID]] = [:]
        for trip in kept {
            guard let s = trip.startedAt?.nanoseconds, let e = trip.endedAt?.nanoseconds else { continue }
            let hits = recorded.filter { r in
                r.2 < e && r.3 > s && (trip.vehicle == nil || r.1 == nil || trip.vehicle == r.1)
            }
            if !hits.isEmpty { out[trip.index] = hits.map(\.0) }
        }
        return out
    }
}
