// SPDX-License-Identifier: MIT
internal import Foundation
internal import GRDB
internal import LogbookCore
internal import LogbookJournal
internal import LogbookRecords

/// Applies journal records to the index inside one write transaction.
///
/// The result never depends on where batches begin and end: chunk n always holds a trip's
/// points n·256 ..< (n+1)·256 (the last, partial one is rewritten as it grows), running
/// figures are stored exactly (REAL is the same IEEE double), and a gap's two halves may
/// arrive in different batches. So an index caught up in many steps, or after a kill -9
/// between them, equals one rebuilt in a single pass.
struct IndexProjector {
    let db: Database
    /// Rows changed in this batch, written by ``flush()``.
    private var trips: [Int64: TripRow] = [:]
    /// The last, incomplete chunk of each trip that received points in this batch.
    private var chunks: [Int64: ChunkBuilder] = [:]
    /// The trip whose points records are arriving (consecutive ones are the common case).
    private var active: (row: TripRow, chunk: ChunkBuilder)?
    /// The trip a gap belongs to: the most recently started one still open.
    private var openTrip: Int64??
    /// The highest trip number in the index (loaded once).
    private var highestKnownTrip: Int64?
    /// Recorded trips that corrected trips are made of (loaded once), and whether this batch
    /// brought a correction or changed one of them: then ``flush()`` rebuilds the corrections.
    private var correctedSources: Set<Int64>?
    private var correctionsChanged = false
    private(set) var statistics = Statistics()

    struct Statistics: Sendable, Hashable {
        var records = 0
        var points = 0
        var tripsStarted = 0
        var tripsEnded = 0
        /// Ended trips a restart continued (one trip, with the restart's gap).
        var tripsReopened = 0
        var entries = 0
        /// Points, ends or gaps naming a trip the journal never started (skipped).
        var orphans = 0
    }

    init(db: Database) {
        self.db = db
    }

    mutating func apply(_ e: JournalEntry) throws {
        statistics.records += 1
        let seq = Int64(bitPattern: e.sequence)
        if case .points = e.record {} else { park() }
        switch e.record {
        case .tripStarted(let s):
            let id = Int64(bitPattern: s.id.rawValue)
            // Trip numbers only grow: look a start up only when it is not above all known ones.
            if id <= (try highestTripID()), try row(id) != nil {
                statistics.orphans += 1
                return
            }
            trips[id] = TripRow(id: id, vehicleID: s.vehicleID, startSequence: seq, startReason: s.reason, startedAt: s.gpsTime?.nanoseconds)
            highestKnownTrip = max(highestKnownTrip ?? id, id)
            openTrip = .some(id)
            statistics.tripsStarted += 1
        case .points(let tripID, let points):
            let id = Int64(bitPattern: tripID.rawValue)
            // The trip being recorded stays out of the dictionaries while its points arrive,
            // so that neither its row nor its chunk's point array is copied for each record.
            var (trip, builder): (TripRow, ChunkBuilder)
            if let a = active, a.row.id == id {
                (trip, builder) = a
                active = nil
            } else {
                park()
                guard let t = try takeRow(id), t.state == .open else {
                    statistics.orphans += 1
                    return
                }
                trip = t
                builder = try chunks.removeValue(forKey: id) ?? chunk(of: t)
            }
            for (i, p) in points.enumerated() {
                let stored = QuantisedPoint(p)
                trip.add(stored)
                if let full = builder.append(stored, sequence: seq + Int64(i)) { try write(full, trip: id) }
            }
            trip.refreshOpenFigures()
            trip.lastSequence = seq + Int64(points.count) - 1
            active = (trip, builder)
            statistics.points += points.count
        case .tripEnded(let end):
            let id = Int64(bitPattern: end.id.rawValue)
            guard var trip = try row(id), trip.state == .open else {
                statistics.orphans += 1
                return
            }
            trip.state = end.discarded ? .discarded : .closed
            trip.endReason = end.reason
            trip.endedAt = end.gpsTime?.nanoseconds ?? trip.lastPointAt
            trip.distance = end.summary.distance
            trip.duration = end.summary.duration
            trip.averageSpeed = end.summary.averageSpeed
            trip.maxSpeed = end.summary.maxSpeed
            trip.lastSequence = seq
            trips[id] = trip
            if try currentOpenTrip() == id { openTrip = .some(nil) }
            statistics.tripsEnded += 1
        case .tripReopened(let r):
            // A restart mid-drive continued it: open again; its next end brings the figures.
            let id = Int64(bitPattern: r.id.rawValue)
            guard var trip = try row(id), trip.state != .open else {
                statistics.orphans += 1
                return
            }
            trip.state = .open
            trip.endReason = nil
            trip.endedAt = nil
            trip.lastSequence = seq
            trip.refreshOpenFigures()
            trips[id] = trip
            openTrip = .some(id)
            statistics.tripsReopened += 1
        case .signal(let signal):
            guard signal.source == "gps:no-fix" else { return }
            try gap(signal, seq: seq)
        case .entry(let entry):
            if TripCorrections.types.contains(entry.type) { correctionsChanged = true }
            try db.cachedStatement(sql: "INSERT OR REPLACE INTO entries VALUES (?, ?, ?, ?, ?, ?, ?, ?)").execute(arguments: RowCheck.checked([
                seq.databaseValue, entry.type.databaseValue, entry.action.name.databaseValue, entry.subject.databaseValue,
                entry.fields.serialized.databaseValue, entry.recordedAt.databaseValue, entry.origin.databaseValue,
            ]))
            statistics.entries += 1
        }
    }

    /// Writes the rows and partial chunks this batch changed, then the corrected trips if
    /// a correction or one of the trips they are made of changed.
    mutating func flush() throws {
        park()
        if !correctionsChanged, !trips.isEmpty {
            if correctedSources == nil { correctedSources = try CorrectedTrips.sources(db) }
            correctionsChanged = trips.keys.contains { correctedSources?.contains($0) == true }
        }
        let insert = try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO trips (\(TripRow.columns), crc) VALUES (\(Array(repeating: "?", count: 22).joined(separator: ",")))")
        for id in trips.keys.sorted() {
            if let trip = trips[id] { try insert.execute(arguments: trip.arguments) }
        }
        for id in chunks.keys.sorted() {
            if let builder = chunks[id], !builder.points.isEmpty { try write(builder, trip: id) }
        }
        trips.removeAll(keepingCapacity: true)
        chunks.removeAll(keepingCapacity: true)
        if correctionsChanged {
            try CorrectedTrips.rebuild(db)
            correctedSources = nil
            correctionsChanged = false
        }
    }

    // MARK: - Rows

    /// Puts the active trip back into the dictionaries.
    private mutating func park() {
        guard let a = active else { return }
        trips[a.row.id] = a.row
        chunks[a.row.id] = a.chunk
        active = nil
    }

    private mutating func takeRow(_ id: Int64) throws -> TripRow? {
        if let t = trips.removeValue(forKey: id) { return t }
        return try row(id).map { trips.removeValue(forKey: $0.id) ?? $0 }
    }

    private mutating func row(_ id: Int64) throws -> TripRow? {
        if let t = trips[id] { return t }
        guard let r = try Row.fetchOne(db.cachedStatement(sql: "SELECT \(TripRow.columns), crc FROM trips WHERE id = ?"), arguments: [id]) else {
            return nil
        }
        let t = try TripRow.checked(r)
        trips[id] = t
        return t
    }

    private mutating func highestTripID() throws -> Int64 {
        if let known = highestKnownTrip { return known }
        let id = try Int64.fetchOne(db, sql: "SELECT max(id) FROM trips") ?? 0
        highestKnownTrip = id
        return id
    }

    private mutating func currentOpenTrip() throws -> Int64? {
        if let known = openTrip { return known }
        let id = try Int64.fetchOne(db, sql: "SELECT max(id) FROM trips WHERE state = 'open'")
        openTrip = .some(id)
        return id
    }

    private mutating func gap(_ signal: SignalEvent, seq: Int64) throws {
        guard let trip = try currentOpenTrip() else {
            statistics.orphans += 1
            return
        }
        let time = signal.gpsTime?.nanoseconds
        if signal.on {
            try writeGap([trip.databaseValue, seq.databaseValue, time.databaseValue, .null])
        } else if let open = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT trip_id, seq, from_time, to_time, crc FROM gaps WHERE trip_id = ? AND to_time IS NULL ORDER BY seq DESC LIMIT 1"),
            arguments: [trip])
        {
            // The half that closes the latest open gap (it may have come in an earlier batch).
            try RowCheck.verify(open, "gap row")
            try writeGap([trip.databaseValue, (open[1] as Int64).databaseValue, (open[2] as Int64?).databaseValue, time.databaseValue])
        }
        if var row = try row(trip) {
            row.lastSequence = seq
            trips[trip] = row
        }
    }

    // MARK: - Chunks

    private func chunk(of trip: TripRow) throws -> ChunkBuilder {
        let index = trip.points / Int64(PointChunkCodec.pointsPerChunk)
        var builder = ChunkBuilder(index: index)
        if trip.points % Int64(PointChunkCodec.pointsPerChunk) != 0 {
            // Continue the partial chunk an earlier batch stored.
            guard let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT * FROM point_chunks WHERE trip_id = ? AND chunk = ?"),
                arguments: [trip.id, index])
            else { throw TripIndexError.damaged("trip \(trip.id) lacks its point chunk \(index)") }
            try RowCheck.verify(row, "point chunk row")
            builder.points = try PointChunkCodec.decode([UInt8](row["data"] as Data))
            builder.firstSequence = row["first_seq"]
            builder.lastSequence = row["last_seq"]
            guard builder.points.count == Int(trip.points % Int64(PointChunkCodec.pointsPerChunk)) else {
                throw TripIndexError.damaged("trip \(trip.id): chunk \(index) holds \(builder.points.count) points")
            }
        }
        return builder
    }

    private func writeGap(_ values: [DatabaseValue]) throws {
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO gaps (trip_id, seq, from_time, to_time, crc) VALUES (?, ?, ?, ?, ?)")
            .execute(arguments: RowCheck.checked(values))
    }

    private func write(_ b: ChunkBuilder, trip: Int64) throws {
        let box = b.boundingBox
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO point_chunks VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
            .execute(arguments: RowCheck.checked([
                trip.databaseValue, b.index.databaseValue, b.firstSequence.databaseValue, b.lastSequence.databaseValue,
                Int64(b.points.count).databaseValue, (b.points.first?.time ?? 0).databaseValue, (b.points.last?.time ?? 0).databaseValue,
                box?.minLat.databaseValue ?? .null, box?.maxLat.databaseValue ?? .null, box?.minLon.databaseValue ?? .null,
                box?.maxLon.databaseValue ?? .null, Data(PointChunkCodec.encode(b.points[...])).databaseValue,
            ]))
    }
}

/// The chunk a trip's next points go to.
struct ChunkBuilder {
    var index: Int64
    var points: [QuantisedPoint] = []
    var firstSequence: Int64 = 0
    var lastSequence: Int64 = 0

    init(index: Int64) {
        self.index = index
        points.reserveCapacity(PointChunkCodec.pointsPerChunk)
    }

    /// Adds a point; returns the chunk when it is full (and starts the next one).
    mutating func append(_ p: QuantisedPoint, sequence: Int64) -> ChunkBuilder? {
        if points.isEmpty { firstSequence = sequence }
        points.append(p)
        lastSequence = sequence
        guard points.count == PointChunkCodec.pointsPerChunk else { return nil }
        let full = self
        self = ChunkBuilder(index: index + 1)
        return full
    }

    var boundingBox: (minLat: Double, maxLat: Double, minLon: Double, maxLon: Double)? {
        var box: (minLat: Double, maxLat: Double, minLon: Double, maxLon: Double)?
        for p in points where p.latitude != QuantisedPoint.noneI32 && p.longitude != QuantisedPoint.noneI32 {
            let lat = p.latitudeDegrees, lon = p.longitudeDegrees
            if let b = box {
                box = (min(b.minLat, lat), max(b.maxLat, lat), min(b.minLon, lon), max(b.maxLon, lon))
            } else {
                box = (lat, lat, lon, lon)
            }
        }
        return box
    }
}
