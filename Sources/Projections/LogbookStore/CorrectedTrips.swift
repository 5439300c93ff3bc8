// SPDX-License-Identifier: MIT
internal import Foundation
internal import GRDB
internal import LogbookCore
internal import LogbookJournal
internal import LogbookRecords

/// The trips corrections changed, as rows of `corrected_trips`: what the catalog shows instead
/// of (or besides) the recorded trips of `trips`, which stay as the journal recorded them.
///
/// Rebuilt from all `trip.*` correction entries whenever one arrives or a trip they touch
/// changes (a few hundred entries over a decade: milliseconds). Trips no correction touches
/// cost nothing here.
enum CorrectedTrips {
    /// Recomputes every corrected trip (inside the caller's write transaction).
    static func rebuild(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM corrected_trips; DELETE FROM corrected_sources")
        var rows: [Int64: TripRow] = [:]
        guard let fold = try fold(db, rows: &rows) else { return }
        var mergedInto: [TripID: [TripID]] = [:]
        for t in fold.trips.values { if let into = t.mergedInto { mergedInto[into, default: []].append(t.number) } }
        let insert = try db.cachedStatement(
            sql: "INSERT INTO corrected_trips (\(CorrectedRow.columns), crc) VALUES (\(Array(repeating: "?", count: CorrectedRow.columnCount + 1).joined(separator: ",")))")
        var sources: Set<Int64> = []
        for trip in fold.trips.values.sorted(by: { $0.number < $1.number }) {
            var row = try CorrectedRow(trip, rows: { id in
                if let r = rows[id] { return r }
                guard let r = try Row.fetchOne(db, sql: "SELECT \(TripRow.columns), crc FROM trips WHERE id = ?", arguments: [id]) else { return nil }
                let t = try TripRow.checked(r)
                rows[id] = t
                return t
            }, pointsOf: { try TripIndex.recordedPoints(of: $0, in: db) })
            row.mergedFrom = (mergedInto[trip.number] ?? []).sorted()
            try insert.execute(arguments: row.arguments)
            for p in trip.parts { sources.insert(Int64(bitPattern: p.source.rawValue)) }
            sources.insert(Int64(bitPattern: trip.number.rawValue))
        }
        let source = try db.cachedStatement(sql: "INSERT OR IGNORE INTO corrected_sources (trip_id) VALUES (?)")
        for id in sources.sorted() { try source.execute(arguments: [id]) }
    }

    /// Every correction folded over the recorded trips they name (nil without corrections);
    /// `rows` collects those trips' rows.
    static func fold(_ db: Database, rows: inout [Int64: TripRow]) throws -> TripCorrections? {
        let entries = try correctionEntries(db)
        guard !entries.isEmpty else { return nil }
        var spans: [TripID: TripCorrections.RecordedSpan] = [:]
        for id in TripCorrections.referencedTrips(in: entries) {
            let key = Int64(bitPattern: id.rawValue)
            guard let r = try Row.fetchOne(db, sql: "SELECT \(TripRow.columns), crc FROM trips WHERE id = ?", arguments: [key]) else { continue }
            let row = try TripRow.checked(r)
            rows[key] = row
            spans[id] = TripCorrections.RecordedSpan(
                id: id, vehicle: row.vehicleID, start: (row.startedAt ?? row.firstPointAt).map(GPSTime.init(nanoseconds:)),
                end: (row.endedAt ?? row.lastPointAt).map(GPSTime.init(nanoseconds:)))
        }
        var fold = TripCorrections(recorded: spans)
        for e in entries { fold.apply(e) }
        return fold
    }

    /// The trip numbers whose rows corrections depend on (a change to one means a rebuild).
    static func sources(_ db: Database) throws -> Set<Int64> {
        Set(try Int64.fetchAll(db, sql: "SELECT trip_id FROM corrected_sources"))
    }

    /// Every correction entry, in journal order.
    static func correctionEntries(_ db: Database) throws -> [RecordedEntry] {
        let types = TripCorrections.types.sorted()
        let rows = try Row.fetchAll(
            db,
            sql: "SELECT seq, type, action, subject, fields, recorded_at, origin, crc FROM entries WHERE type IN (\(types.map { _ in "?" }.joined(separator: ","))) ORDER BY seq",
            arguments: StatementArguments(types))
        return try rows.map(recordedEntry)
    }

    /// An `entries` row selected as `seq, type, action, subject, fields, recorded_at, origin, crc`.
    static func recordedEntry(_ row: Row) throws -> RecordedEntry {
        try RowCheck.verify(row, "an entry row")
        let action = RecordEntry.Action(rawValue: row[2]) ?? .add
        let fields = (try? JSONValue.parse(row[4] as String)) ?? .object([])
        return RecordedEntry(
            sequence: UInt64(bitPattern: row[0]),
            entry: RecordEntry(type: row[1], action: action, subject: row[3], fields: fields, origin: row[6]),
            recordedAt: (row[5] as Int64?).map(GPSTime.init(nanoseconds:)))
    }
}
