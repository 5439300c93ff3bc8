// SPDX-License-Identifier: MIT
internal import Foundation
internal import GRDB
public import LogbookCore
internal import LogbookJournal
internal import LogbookRecords

extension TripIndex: TripCatalog {
    /// Trips matching `query`, newest first (by trip number: the journal's order, which GPS
    /// time cannot upset), with every correction applied: the recorded trips no correction
    /// touched, streamed from a cursor, merged with the corrected ones.
    public func forEachTrip(matching query: TripQuery, _ body: (TripOverview) throws -> Bool) throws {
        let (filter, arguments) = Self.filter(query)
        var sql = "SELECT \(TripRow.columns), crc FROM trips WHERE id NOT IN (SELECT number FROM corrected_trips)" + filter
        sql += " ORDER BY id DESC"
        if let limit = query.limit { sql += " LIMIT \(max(0, limit))" }
        try mapping {
            try pool.read { db in
                var corrected = try Self.correctedRows(db, query).makeIterator()
                var nextCorrected = corrected.next()
                let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
                var previous = Int64.max
                var delivered = 0
                func deliver(_ trip: TripOverview) throws -> Bool {
                    delivered += 1
                    return try body(trip) && (query.limit.map { delivered < $0 } ?? true)
                }
                while let row = try rows.next() {
                    let trip = try TripRow.checked(row)
                    // A damaged b-tree page can hand back rows twice or out of order.
                    guard trip.id < previous else { throw TripIndexError.damaged("trip rows out of order") }
                    previous = trip.id
                    while let c = nextCorrected, Int64(bitPattern: c.id.rawValue) > trip.id {
                        guard try deliver(c) else { return }
                        nextCorrected = corrected.next()
                    }
                    guard try deliver(trip.overview) else { return }
                }
                while let c = nextCorrected {
                    guard try deliver(c) else { return }
                    nextCorrected = corrected.next()
                }
            }
        }
    }

    /// The trip numbered `id` as corrections left it (nil for a trip merged into another).
    public func trip(_ id: TripID) throws -> TripOverview? {
        try mapping {
            try pool.read { db in
                let key = Int64(bitPattern: id.rawValue)
                if let row = try Row.fetchOne(db, sql: "SELECT \(CorrectedRow.selectColumns) FROM corrected_trips WHERE number = ?", arguments: [key]) {
                    let overview = try CorrectedRow.overview(row)
                    // Merged into another trip: not a trip of its own any more.
                    return (row[1] as Int64?) == nil ? overview : nil
                }
                return try Row.fetchOne(db, sql: "SELECT \(TripRow.columns), crc FROM trips WHERE id = ?", arguments: [key])
                    .map { try TripRow.checked($0).overview }
            }
        }
    }

    /// The trip's points in order, a chunk at a time (a merged or split trip's from the
    /// stretches of the recorded trips it is made of).
    ///
    /// - Throws: ``TripIndexError/damaged(_:)`` when a chunk fails its check (rebuild).
    public func forEachPointChunk(of id: TripID, _ body: ([TripPoint]) throws -> Void) throws {
        try mapping {
            try pool.read { db in
                guard let parts = try Self.parts(of: id, db) else {
                    try Self.forEachRecordedChunk(of: Int64(bitPattern: id.rawValue), db) { try body($0) }
                    return
                }
                for part in parts {
                    try Self.forEachRecordedChunk(of: Int64(bitPattern: part.source.rawValue), db) { chunk in
                        let inside = chunk.filter { p in (part.from.map { p.time >= $0 } ?? true) && (part.until.map { p.time < $0 } ?? true) }
                        if !inside.isEmpty { try body(inside) }
                    }
                }
            }
        }
    }

    /// All points of recorded trip `id` (inside a transaction of the caller's).
    static func recordedPoints(of id: Int64, in db: Database) throws -> [TripPoint] {
        var out: [TripPoint] = []
        try forEachRecordedChunk(of: id, db) { out.append(contentsOf: $0) }
        return out
    }

    static func forEachRecordedChunk(of id: Int64, _ db: Database, _ body: ([TripPoint]) throws -> Void) throws {
        let rows = try Row.fetchCursor(db, sql: "SELECT * FROM point_chunks WHERE trip_id = ? ORDER BY chunk", arguments: [id])
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

    /// The stretches without a fix inside the trip, in order; bridged when no longer than
    /// ``Options/maxBridgedGap``. A merged trip also has the time between two recorded trips,
    /// never bridged (parts of one recorded trip, split and merged back, join without one).
    public func gaps(of id: TripID) throws -> [TripGap] {
        try mapping {
            try pool.read { db in
                guard let parts = try Self.parts(of: id, db) else { return try recordedGaps(of: Int64(bitPattern: id.rawValue), db) }
                var out: [TripGap] = []
                var previousEnd: GPSTime?
                var previousSource: TripID?
                for part in parts {
                    let times = try Self.pointTimes(of: part, db)
                    if let end = previousEnd, let start = times.first, start > end, previousSource != part.source {
                        out.append(TripGap(from: end, to: start, seconds: start.seconds(since: end), bridged: false))
                    }
                    out += try recordedGaps(of: Int64(bitPattern: part.source.rawValue), db).filter { g in
                        (part.from.map { g.from >= $0 } ?? true) && (part.until.map { g.to <= $0 } ?? true)
                    }
                    previousEnd = times.last ?? previousEnd
                    previousSource = part.source
                }
                return out
            }
        }
    }

    private func recordedGaps(of id: Int64, _ db: Database) throws -> [TripGap] {
        try Row.fetchAll(db, sql: "SELECT trip_id, seq, from_time, to_time, crc FROM gaps WHERE trip_id = ? ORDER BY seq", arguments: [id])
            .compactMap { row -> TripGap? in
                try RowCheck.verify(row, "a gap row of trip \(id)")
                guard let from: Int64 = row[2], let to: Int64 = row[3] else { return nil }
                let seconds = Double(to - from) / 1e9
                return TripGap(
                    from: GPSTime(nanoseconds: from), to: GPSTime(nanoseconds: to), seconds: seconds, bridged: seconds <= options.maxBridgedGap)
            }
    }

    /// The first and last point time of a part.
    private static func pointTimes(of part: TripCorrections.Part, _ db: Database) throws -> [GPSTime] {
        var first: GPSTime?, last: GPSTime?
        try forEachRecordedChunk(of: Int64(bitPattern: part.source.rawValue), db) { chunk in
            for p in chunk where (part.from.map { p.time >= $0 } ?? true) && (part.until.map { p.time < $0 } ?? true) {
                if first == nil { first = p.time }
                last = p.time
            }
        }
        return [first, last].compactMap { $0 }
    }
}
