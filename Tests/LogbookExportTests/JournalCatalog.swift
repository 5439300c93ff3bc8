// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookJournal

/// A ``TripCatalog`` read straight from a journal the real daemon wrote: a test double for the
/// SQLite index (it rereads the journal on every call, which is fine for two drives).
struct JournalCatalog: TripCatalog {
    let reader: JournalReader
    let trips: [TripInfo]
    /// Points handed out per chunk, as the index stores them.
    var chunkSize = 512

    init(directory: String) throws {
        reader = try JournalReader(directory: directory)
        trips = try reader.trips()
    }

    func overview(_ t: TripInfo) throws -> TripOverview {
        let points = try reader.points(of: t.id)
        let state: TripOverview.State = switch t.state {
        case .open: .open
        case .closed: .closed
        case .discarded: .discarded
        }
        return TripOverview(
            id: t.id, vehicleID: t.vehicleID, startedAt: t.startTime, endedAt: t.endTime, startReason: t.startReason,
            endReason: t.endReason, distance: t.summary.distance, duration: t.summary.duration,
            averageSpeed: t.summary.averageSpeed, maxSpeed: t.summary.maxSpeed, pointCount: t.summary.pointCount,
            start: points.first.map { .init(latitude: $0.latitude, longitude: $0.longitude) },
            end: points.last.map { .init(latitude: $0.latitude, longitude: $0.longitude) }, state: state)
    }

    func forEachTrip(matching query: TripQuery, _ body: (TripOverview) throws -> Bool) throws {
        for t in trips.reversed() {
            if let v = query.vehicleID, t.vehicleID != v { continue }
            if !query.includeDiscarded, t.state == .discarded { continue }
            if let since = query.since, let s = t.startTime, s < since { continue }
            if let until = query.until, let s = t.startTime, s >= until { continue }
            guard try body(try overview(t)) else { return }
        }
    }

    func trip(_ id: TripID) throws -> TripOverview? {
        try trips.first { $0.id == id }.map(overview)
    }

    func forEachPointChunk(of id: TripID, _ body: ([TripPoint]) throws -> Void) throws {
        let all = try reader.points(of: id)
        var i = 0
        while i < all.count {
            try body(Array(all[i..<min(i + chunkSize, all.count)]))
            i += chunkSize
        }
    }

    /// The daemon records a gap as a `gps:no-fix` signal pair (on at its start, off at its end).
    func gaps(of id: TripID) throws -> [TripGap] {
        guard let t = trips.first(where: { $0.id == id }) else { return [] }
        var gaps: [TripGap] = []
        var from: GPSTime?
        try reader.forEach(from: t.startSequence) { e in
            if let end = t.endSequence, e.sequence > end { return false }
            guard case .signal(let s) = e.record, s.source == "gps:no-fix", let time = s.gpsTime else { return true }
            if s.on {
                from = time
            } else if let f = from {
                let seconds = time.seconds(since: f)
                gaps.append(TripGap(from: f, to: time, seconds: seconds, bridged: seconds <= 900))
                from = nil
            }
            return true
        }
        return gaps
    }
}

/// An in-memory catalog for unit tests of the writers.
struct MemoryCatalog: TripCatalog {
    var trips: [(TripOverview, [TripPoint], [TripGap])]
    var chunkSize = 3

    func forEachTrip(matching query: TripQuery, _ body: (TripOverview) throws -> Bool) throws {
        for (t, _, _) in trips.reversed() {
            if let v = query.vehicleID, t.vehicleID != v { continue }
            if !query.includeDiscarded, t.discarded { continue }
            guard try body(t) else { return }
        }
    }

    func trip(_ id: TripID) throws -> TripOverview? { trips.first { $0.0.id == id }?.0 }

    func forEachPointChunk(of id: TripID, _ body: ([TripPoint]) throws -> Void) throws {
        let all = trips.first { $0.0.id == id }?.1 ?? []
        var i = 0
        while i < all.count {
            try body(Array(all[i..<min(i + chunkSize, all.count)]))
            i += chunkSize
        }
    }

    func gaps(of id: TripID) throws -> [TripGap] { trips.first { $0.0.id == id }?.2 ?? [] }
}
