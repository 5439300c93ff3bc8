// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import LogbookTestSupport
import Testing

@testable import LogbookStore

/// The index built from journals the real `logbookd` wrote while a real gpsd replayed real
/// drives: what it holds must equal what the daemon reported at each trip's end.
@Suite struct DaemonJournalTests {
    /// A recorded drive: the journal the daemon wrote and what live.json said at the end.
    struct Recording {
        let dir: TemporaryDirectory
        let config: String
        let lastTrip: [String: Any]?
        var journal: String { dir.file("state/journal") }
    }

    static func record(_ log: String, speed: Double, source: String, extra: String = "", name: String) async throws -> Recording {
        let dir = try TemporaryDirectory(name)
        let sysfs = dir.file("sys")
        let supply = sysfs + "/class/power_supply/ACAD"
        try FileManager.default.createDirectory(atPath: supply, withIntermediateDirectories: true)
        try "1\n".write(toFile: supply + "/online", atomically: true, encoding: .utf8)
        let gpsd = try GPSDReplay(log: TestPaths.gpsLog(log), realtime: speed)
        defer { gpsd.stop() }
        let config = dir.file("logbookd.toml")
        let sourceBlock = source == "power_supply"
            ? "type = \"power_supply\"\nsupply = \"ACAD\"\nsysfs_root = \"\(sysfs)\"\npoll_interval_s = 0.1\nvehicle = \"golf\""
            : "type = \"\(source)\"\nvehicle = \"golf\""
        try """
            state_dir = "\(dir.file("state"))"
            runtime_dir = "\(dir.file("run"))"
            [gpsd]
            address = "\(gpsd.address)"
            [journal]
            commit_interval_s = 1
            [[vehicle]]
            id = "golf"
            name = "Golf"
            make = "VW"
            [[source]]
            \(sourceBlock)
            \(extra)
            """.write(toFile: config, atomically: true, encoding: .utf8)
        // The trip clock runs at the replay's pace, so durations read as on the road.
        let daemon = try DaemonProcess(arguments: ["--config", config], environment: ["LOGBOOKD_DEBUG_CLOCK_SCALE": String(speed)])
        await gpsd.waitUntilFinished(timeout: .seconds(300))
        if source == "power_supply" {
            try "0\n".write(toFile: supply + "/online", atomically: true, encoding: .utf8)
        }
        var lastTrip: [String: Any]?
        for _ in 0..<100 {
            lastTrip = readJSONFile(dir.file("run/live.json"))?["last_trip"] as? [String: Any]
            if lastTrip != nil || source != "power_supply" { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        _ = await daemon.stop()
        return Recording(dir: dir, config: config, lastTrip: lastTrip)
    }

    /// Index figures against the journal's trip-ended records (what the daemon reported).
    func checkAgainstDaemon(_ r: Recording, label: String) throws -> TripIndex {
        let index = try TripIndex.open(path: r.dir.file("state/cache/index.sqlite"), journalDirectory: r.journal)
        _ = try index.catchUp()
        let reader = try JournalReader(directory: r.journal)
        let daemonTrips = try reader.trips()
        let indexed = try index.trips(matching: TripQuery())
        #expect(indexed.count == daemonTrips.count)
        for t in daemonTrips {
            let mine = try #require(try index.trip(t.id))
            #expect(mine.distance == t.summary.distance && mine.pointCount == t.summary.pointCount)
            #expect(mine.duration == t.summary.duration && mine.maxSpeed == t.summary.maxSpeed)
            #expect(mine.startReason == t.startReason && mine.endReason == t.endReason)
            #expect(mine.discarded == (t.state == .discarded))
            print(String(format: "index-daemon: %@: trip %@: %.1f m, %d points, %.0f s (%@ → %@), %d gaps — equal to the daemon's end record",
                         label, t.id.description, mine.distance, mine.pointCount, mine.duration, mine.startReason,
                         mine.endReason ?? "-", try index.gaps(of: t.id).count))
        }
        return index
    }

    @Test(.timeLimit(.minutes(6)))
    func swissDrive() async throws {
        let r = try await Self.record("20100403_Z205_Switzerland.txt", speed: 100, source: "power_supply", name: "ix-swiss")
        defer { r.dir.remove() }
        let index = try checkAgainstDaemon(r, label: "switzerland")
        let kept = try index.trips(matching: TripQuery(includeDiscarded: false))
        try #require(kept.count == 1, "\(kept)")
        let trip = kept[0]
        // …and equal to what live.json showed when the trip ended.
        let live = try #require(r.lastTrip)
        #expect(live["id"] as? String == trip.id.description)
        #expect(live["points"] as? Int == trip.pointCount)
        #expect(abs((live["distance_m"] as? Double ?? 0) - trip.distance) <= 0.05)
        #expect(trip.pointCount > 9_000 && trip.distance > 240_000)
        // Every point, bit for bit.
        let points = try index.points(of: trip.id)
        let fromJournal = try JournalReader(directory: r.journal).points(of: trip.id)
        #expect(points == fromJournal)
        try CLIChecks(recording: r, trip: trip).run()
    }

    @Test(.timeLimit(.minutes(4)))
    func munichDriveInMotionModeWithItsGap() async throws {
        let r = try await Self.record("munich-gps.nmea", speed: 40, source: "motion", name: "ix-munich")
        defer { r.dir.remove() }
        let index = try checkAgainstDaemon(r, label: "munich")
        let trip = try #require(try index.trips(matching: TripQuery(includeDiscarded: false)).first)
        #expect(trip.startReason == "motion")
        // The 40 s no-fix gap the daemon bridged and journalled shows up.
        let gaps = try index.gaps(of: trip.id)
        #expect(gaps.contains { $0.bridged && $0.seconds >= 30 }, "\(gaps)")
    }
}
