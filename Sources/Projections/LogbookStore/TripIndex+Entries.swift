// SPDX-License-Identifier: MIT
internal import Foundation
internal import GRDB
internal import LogbookCore
public import LogbookJournal

/// A user entry as the index holds it, with its journal sequence number.
public struct IndexedEntry: Sendable, Hashable {
    /// The journal sequence number (orders entries; later amends earlier).
    public var sequence: UInt64
    public var entry: UserEntry
}

/// What the index covers, for `logbook reindex` and status displays.
public struct IndexStatus: Sendable, Hashable {
    public var indexedThrough: UInt64
    public var trips: Int
    public var points: Int
    public var entries: Int
    /// Bytes of the database file (without its WAL).
    public var fileSize: Int
    /// Bytes of the pages in use (the file keeps freed pages for reuse after a rebuild).
    public var usedBytes: Int
}

extension TripIndex {
    /// The user entries of `type` (and `subject`), in journal order, streamed until `body`
    /// returns false: the garage, fuel and places projections read them from here.
    public func forEachEntry(type: String? = nil, subject: String? = nil, _ body: (IndexedEntry) throws -> Bool) throws {
        var conditions: [String] = []
        var arguments: StatementArguments = []
        if let type {
            conditions.append("type = ?")
            arguments += [type]
        }
        if let subject {
            conditions.append("subject = ?")
            arguments += [subject]
        }
        let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        try mapping {
            try pool.read { db in
                let rows = try Row.fetchCursor(
                    db, sql: "SELECT seq, type, action, subject, fields, recorded_at, origin, crc FROM entries\(filter) ORDER BY seq",
                    arguments: arguments)
                while let row = try rows.next() {
                    try RowCheck.verify(row, "an entry row")
                    let action: UserEntry.Action =
                        switch row[2] as String {
                        case "amend": .amend
                        case "void": .void
                        default: .add
                        }
                    let text: String = row[4]
                    let fields = (try? JSONValue.parse(text)) ?? .object([])
                    let entry = UserEntry(type: row[1], action: action, subject: row[3], fields: fields, recordedAt: row[5], origin: row[6])
                    guard try body(IndexedEntry(sequence: UInt64(bitPattern: row[0]), entry: entry)) else { break }
                }
            }
        }
    }

    /// How much the index holds.
    public func status() throws(TripIndexError) -> IndexStatus {
        let counts = try mapping {
            try pool.read { db -> (Int64, Int, Int, Int, Int) in
                let seq = try Int64.fetchOne(db, sql: "SELECT indexed_through_seq FROM index_state") ?? 0
                let trips = try Int.fetchOne(db, sql: "SELECT count(*) FROM trips") ?? 0
                let points = try Int.fetchOne(db, sql: "SELECT coalesce(sum(points), 0) FROM trips") ?? 0
                let entries = try Int.fetchOne(db, sql: "SELECT count(*) FROM entries") ?? 0
                let pages = try Int.fetchOne(db, sql: "SELECT page_count - freelist_count FROM pragma_page_count(), pragma_freelist_count()") ?? 0
                let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0
                return (seq, trips, points, entries, pages * pageSize)
            }
        }
        let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
        return IndexStatus(
            indexedThrough: UInt64(bitPattern: counts.0), trips: counts.1, points: counts.2, entries: counts.3, fileSize: size,
            usedBytes: counts.4)
    }

    /// Every row that the journal determines, as text lines in a fixed order: two indexes of
    /// the same journal have the same dump however they were built (the rollback positions,
    /// which depend on when catch-ups ran, are left out).
    public func dump() throws(TripIndexError) -> [String] {
        try mapping {
            try pool.read { db in
                var lines: [String] = []
                let queries = [
                    "SELECT 'state', indexed_through_seq, hex(chain_head) FROM index_state",
                    "SELECT 'trip', \(TripRow.columns), crc FROM trips ORDER BY id",
                    "SELECT 'chunk', trip_id, chunk, first_seq, last_seq, count, first_time, last_time, min_lat, max_lat, min_lon, max_lon, hex(data), crc FROM point_chunks ORDER BY trip_id, chunk",
                    "SELECT 'gap', trip_id, seq, from_time, to_time, crc FROM gaps ORDER BY trip_id, seq",
                    "SELECT 'entry', seq, type, action, subject, fields, recorded_at, origin, crc FROM entries ORDER BY seq",
                ]
                for sql in queries {
                    let rows = try Row.fetchCursor(db, sql: sql)
                    while let row = try rows.next() {
                        lines.append(row.databaseValues.map { $0.description }.joined(separator: "|"))
                    }
                }
                return lines
            }
        }
    }

    /// Moves what the WAL holds into the database file (so that the file alone is the index,
    /// e.g. for a backup) and closes it; further calls fail. Optional: deinitialisation closes
    /// it too, without the checkpoint.
    public func close() throws(TripIndexError) {
        try mapping {
            // Readers in other processes may hold the WAL: then it stays, which is fine.
            _ = try? pool.writeWithoutTransaction { try $0.checkpoint(.truncate) }
            try pool.close()
        }
    }
}
