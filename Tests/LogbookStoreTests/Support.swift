// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import LogbookStore
import Logging

/// A fresh temporary directory per test, removed by `cleanup()`.
struct StoreDir {
    let path: String

    init(_ label: String = #function) {
        path = NSTemporaryDirectory() + "logbook-store-" + label.filter { $0.isLetter || $0.isNumber } + "-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    var state: String { path + "/state" }
    var journal: String { path + "/state/journal" }
    /// Where the CLI puts the index for a non-default state directory.
    var cache: String { path + "/state/cache" }
    var index: String { cache + "/index.sqlite" }
    func cleanup() { try? FileManager.default.removeItem(atPath: path) }
}

let quietLogger: Logger = {
    var l = Logger(label: "test.store")
    l.logLevel = .critical
    return l
}()

/// Writes trips the way the daemon does: signals around them, points in small records,
/// `gps:no-fix` pairs for gaps, user entries, discarded and open trips.
struct JournalScript {
    let writer: JournalWriter
    var time: Int64 = 1_900_000_000 * 1_000_000_000
    var latitude = 47.29, longitude = 7.74

    static func open(_ dir: StoreDir, segmentSize: Int = 4 << 20) throws -> JournalScript {
        var config = JournalConfiguration(directory: dir.journal, stateDirectory: dir.state, commitInterval: .milliseconds(20), segmentSize: segmentSize)
        config.maximumPointsPerRecord = 5
        return JournalScript(writer: try JournalWriter.open(config, logger: quietLogger))
    }

    mutating func points(_ n: Int) -> [TripPoint] {
        (0..<n).map { i in
            time += 1_000_000_000
            latitude += 0.0002
            longitude += 0.0001 * Double(i % 3)
            return TripPoint(
                time: GPSTime(nanoseconds: time), latitude: latitude, longitude: longitude, speed: Double(i % 30),
                track: Double(i % 360), altitude: i % 9 == 0 ? nil : 420.5, eph: 4.2)
        }
    }

    /// A whole trip; returns its id.
    @discardableResult
    mutating func trip(
        vehicle: String? = "golf", reason: String = "power:ACAD", points n: Int, gapAfter: Int? = nil, gapSeconds: Int64 = 40,
        end: String? = "power:ACAD", discarded: Bool = false
    ) throws -> TripID {
        let id = writer.nextTripID()
        try writer.append(.signal(SignalEvent(source: reason, vehicleID: vehicle, on: true, monotonicNanoseconds: 1)))
        try writer.append(.tripStarted(TripStarted(id: id, vehicleID: vehicle, reason: reason, gpsTime: GPSTime(nanoseconds: time + 500_000_000), monotonicNanoseconds: 1, bootID: "t")))
        var all: [TripPoint] = []
        for i in 0..<n {
            if i == gapAfter {
                try writer.append(.signal(SignalEvent(source: "gps:no-fix", vehicleID: vehicle, on: true, gpsTime: all.last?.time, monotonicNanoseconds: 2)))
                time += gapSeconds * 1_000_000_000
                try writer.append(.signal(SignalEvent(source: "gps:no-fix", vehicleID: vehicle, on: false, gpsTime: GPSTime(nanoseconds: time + 1_000_000_000), monotonicNanoseconds: 2)))
            }
            let p = points(1)
            try writer.append(.points(id, p))
            all += p
        }
        guard let end else { return id }
        var distance = 0.0
        for (a, b) in zip(all, all.dropFirst()) { distance += Geodesy.distance(a, b) }
        let duration = all.count > 1 ? all[all.count - 1].time.seconds(since: all[0].time) : 0
        try writer.append(.tripEnded(TripEnded(
            id: id, reason: end, gpsTime: all.last?.time,
            summary: TripSummary(distance: distance, duration: duration, maxSpeed: all.compactMap(\.speed).max() ?? 0,
                                 averageSpeed: duration > 0 ? distance / duration : 0, pointCount: all.count),
            discarded: discarded, monotonicNanoseconds: 3)))
        try writer.append(.signal(SignalEvent(source: reason, vehicleID: vehicle, on: false, monotonicNanoseconds: 4)))
        return id
    }

    func entry(_ type: String, _ subject: String, _ action: UserEntry.Action = .add, _ fields: [(String, JSONValue)] = []) throws {
        try writer.append(.entry(UserEntry(type: type, action: action, subject: subject, fields: .object(fields), recordedAt: 7, origin: "test")))
    }

    func close() async throws { try await writer.close() }
}

/// The index, freshly built from scratch in its own file: what every catch-up must equal.
func cleanRebuildDump(_ dir: StoreDir) throws -> [String] {
    let path = dir.path + "/clean-\(UUID().uuidString).sqlite"
    let index = try TripIndex.open(path: path, journalDirectory: dir.journal)
    _ = try index.rebuild()
    let dump = try index.dump()
    try index.close()
    for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + s) }
    return dump
}

/// `stat` of a path: mode bits, owner, group.
func fileStat(_ path: String) -> (mode: UInt32, uid: UInt32, gid: UInt32)? {
    var st = stat()
    guard stat(path, &st) == 0 else { return nil }
    return (UInt32(st.st_mode) & 0o7777, st.st_uid, st.st_gid)
}
