// SPDX-License-Identifier: MIT
// Export throughput on a journal the daemon wrote (bench/export-bench.sh runs this in release).
// Figures are printed, never asserted.
//
//   logbook-export-bench write FORMAT JOURNAL_DIR OUT    export every kept trip to OUT (timed from outside)
//   logbook-export-bench repeat FORMAT JOURNAL_DIR N     export N times to a discarding sink, print the best
//   logbook-export-bench synthetic FORMAT TRIPS OUT      export TRIPS made-up trips of 200 points (peak RSS
//                                                        measured from outside: memory must not grow with TRIPS)
import LogbookCore
import LogbookExport
import LogbookJournal
#if canImport(Glibc)
    import Glibc
#endif

/// The journal as a catalog, points held in memory (one trip, a few MB): the SQLite index's
/// stand-in until it is merged, so the figures measure the writers, not the store.
struct JournalCatalog: TripCatalog {
    var trips: [TripOverview] = []
    var points: [TripID: [TripPoint]] = [:]

    init(directory: String) throws {
        let reader = try JournalReader(directory: directory)
        for t in try reader.trips() where t.state != .discarded {
            let p = try reader.points(of: t.id)
            points[t.id] = p
            trips.append(
                TripOverview(
                    id: t.id, vehicleID: t.vehicleID, startedAt: t.startTime, endedAt: t.endTime, startReason: t.startReason,
                    endReason: t.endReason, distance: t.summary.distance, duration: t.summary.duration,
                    averageSpeed: t.summary.averageSpeed, maxSpeed: t.summary.maxSpeed, pointCount: p.count))
        }
    }

    func forEachTrip(matching query: TripQuery, _ body: (TripOverview) throws -> Bool) throws {
        for t in trips.reversed() where try !body(t) { return }
    }
    func trip(_ id: TripID) throws -> TripOverview? { trips.first { $0.id == id } }
    func forEachPointChunk(of id: TripID, _ body: ([TripPoint]) throws -> Void) throws {
        let all = points[id] ?? []
        var i = 0
        while i < all.count {
            try body(Array(all[i..<min(i + 512, all.count)]))
            i += 512
        }
    }
    func gaps(of id: TripID) throws -> [TripGap] { [] }
}

/// Trips of 200 points made up as they are read: nothing is held, so the exporter's own
/// memory is all that a run's peak RSS shows.
struct SyntheticCatalog: TripCatalog {
    let count: Int
    static let pointsPerTrip = 200

    func overview(_ n: Int) -> TripOverview {
        let start = GPSTime(seconds: 1_600_000_000 + Int64(n) * 6000)
        return TripOverview(
            id: TripID(UInt64(n)), vehicleID: "golf", startedAt: start, endedAt: GPSTime(seconds: start.wholeSeconds + 199),
            startReason: "power:ACAD", endReason: "power:ACAD", distance: 4000, duration: 199, averageSpeed: 20, maxSpeed: 30,
            pointCount: Self.pointsPerTrip)
    }

    func forEachTrip(matching query: TripQuery, _ body: (TripOverview) throws -> Bool) throws {
        for n in stride(from: count, through: 1, by: -1) where try !body(overview(n)) { return }
    }
    func trip(_ id: TripID) throws -> TripOverview? { id.rawValue >= 1 && id.rawValue <= count ? overview(Int(id.rawValue)) : nil }
    func forEachPointChunk(of id: TripID, _ body: ([TripPoint]) throws -> Void) throws {
        let start = 1_600_000_000 + Int64(id.rawValue) * 6000
        try body((0..<Self.pointsPerTrip).map { i in
            TripPoint(
                time: GPSTime(seconds: start + Int64(i)), latitude: 47.3 + Double(i) * 1e-4, longitude: 7.7 + Double(i) * 2e-4,
                speed: 20 + Double(i % 10), track: 90, altitude: 430, eph: 5)
        })
    }
    func gaps(of id: TripID) throws -> [TripGap] { [] }
}

final class FDSink: ByteSink {
    let fd: Int32
    init(_ fd: Int32) { self.fd = fd }
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        var off = 0
        while off < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress.map { $0 + off }, bytes.count - off)
            guard n > 0 else { throw Failure.write }
            off += n
        }
    }
    enum Failure: Error { case write }
}

final class NullSink: ByteSink {
    func write(_ bytes: UnsafeRawBufferPointer) throws {}
}

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

let args = CommandLine.arguments
guard args.count == 5, let format = ExportFormat(rawValue: args[2]) else {
    print("usage: logbook-export-bench write|repeat gpx|geojson|csv JOURNAL_DIR OUT|N")
    exit(64)
}
do {
    let export = TripExport(format: format)
    if args[1] == "synthetic" {
        let fd = open(args[4], O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw FDSink.Failure.write }
        let s = try export.write(.matching(TripQuery()), from: SyntheticCatalog(count: Int(args[3]) ?? 0), to: FDSink(fd))
        close(fd)
        print("wrote \(s.trips) trips, \(s.points) points, \(s.bytes) bytes")
        exit(0)
    }
    let catalog = try JournalCatalog(directory: args[3])
    switch args[1] {
    case "write":
        let fd = open(args[4], O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw FDSink.Failure.write }
        // No fsync: the peer (gpsbabel) does not sync either.
        let s = try export.write(.matching(TripQuery()), from: catalog, to: FDSink(fd))
        close(fd)
        print("wrote \(s.trips) trips, \(s.points) points, \(s.bytes) bytes")
    default:
        var best = Double.infinity
        var summary = ExportSummary(trips: 0, points: 0, bytes: 0)
        for _ in 0..<(Int(args[4]) ?? 5) {
            let t = now()
            summary = try export.write(.matching(TripQuery()), from: catalog, to: NullSink())
            best = min(best, now() - t)
        }
        let mpts = Double(summary.points) / best / 1e6
        let mbps = Double(summary.bytes) / best / 1e6
        print("\(format.rawValue) \(summary.points) \(summary.bytes) \(best) \(mpts) \(mbps)")
    }
} catch {
    print("logbook-export-bench: \(error)")
    exit(1)
}
