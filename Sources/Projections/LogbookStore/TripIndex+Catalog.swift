// SPDX-License-Identifier: MIT
internal import Foundation
internal import GRDB
public import LogbookCore
internal import LogbookJournal

extension TripIndex: TripCatalog {
    /// Trips matching `query`, newest first (by trip number: the journal's order, which GPS
    /// time cannot upset), streamed from a cursor.
    public func forEachTrip(matching query: TripQuery, _ body: (TripOverview) throws -> Bool) throws {
        var conditions: [String] = []
        var arguments: StatementArguments = []
        if let v = query.vehicleID {
            conditions.append("vehicle_id = ?")
            arguments += [v]
        }
        if let since = query.since {
            conditions.append("started_at >= ?")
            arguments += [since.nanoseconds]
        }
        if let until = query.until {
            conditions.append("started_at < ?")
            arguments += [until.nanoseconds]
        }
        if !query.includeDiscarded { conditions.append("state != 'discarded'") }
        var sql = "SELECT \(TripRow.columns), crc FROM trips"
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        sql += " ORDER BY id DESC"
        if let limit = query.limit { sql += " LIMIT \(max(0, limit))" }
        try mapping {
            try pool.read { db in
                let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
                var previous = Int64.max
                while let row = try rows.next() {
                    let trip = try TripRow.checked(row)
                    // A damaged b-tree page can hand back rows twice or out of order.
                    guard trip.id < previous else { throw TripIndexError.damaged("trip rows out of order") }
                    previous = trip.id
                    guard try body(trip.overview) else { break }
                }
            }
        }
    }

    /// The trip numbered `id`.
    public func trip(_ id: TripID) throws -> TripOverview? {
        try mapping {
            try pool.read { db in
                try Row.fetchOne(db, sql: "SELECT \(TripRow.columns), crc FROM trips WHERE id = ?", arguments: [Int64(bitPattern: id.rawValue)])
                    .map { try TripRow.checked($0).overview }
            }
        }
    }

    /// The trip's points in order, one chunk (up to 256 points) at a time.
    ///
    /// - Throws: ``TripIndexError/damaged(_:)`` when a chunk fails its check (rebuild).
    public func forEachPointChunk(of id: TripID, _ body: ([TripPoint]) throws -> Void) throws {
        try mapping {
            try pool.read { db in
                let rows = try Row.fetchCursor(
                    db, sql: "SELECT * FROM point_chunks WHERE trip_id = ? ORDER BY chunk", arguments: [Int64(bitPattern: id.rawValue)])
                var expected: Int64 = 0
                while let row = try rows.next() {
                    try RowCheck.verify(row, "a point chunk row of trip \(id)")
                    let index: Int64 = row["chunk"], count: Int = row["count"]
                    let points = try PointChunkCodec.decode([UInt8](row["data"] as Data))
                    guard index == expected, points.count == count else {
                        throw TripIndexError.damaged("trip \(id): point chunk \(index) out of place")
                    }
                    expected += 1
                    try body(points.map(\.tripPoint))
                }
            }
        }
    }

    /// The stretches without a fix inside the trip, in order; bridged when no longer than
    /// ``Options/maxBridgedGap``.
    public func gaps(of id: TripID) throws -> [TripGap] {
        try mapping {
            try pool.read { db in
                try Row.fetchAll(
                    db, sql: "SELECT trip_id, seq, from_time, to_time, crc FROM gaps WHERE trip_id = ? ORDER BY seq",
                    arguments: [Int64(bitPattern: id.rawValue)]
                ).compactMap { row -> TripGap? in
                    try RowCheck.verify(row, "a gap row of trip \(id)")
                    guard let from: Int64 = row[2], let to: Int64 = row[3] else { return nil }
                    let seconds = Double(to - from) / 1e9
                    return TripGap(
                        from: GPSTime(nanoseconds: from), to: GPSTime(nanoseconds: to), seconds: seconds,
                        bridged: seconds <= options.maxBridgedGap)
                }
            }
        }
    }
}
