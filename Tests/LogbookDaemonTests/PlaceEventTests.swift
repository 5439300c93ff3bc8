// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import LogbookTestSupport
import Testing

/// Arrival and departure events from a real gpsd replay through the built logbookd: the
/// journal's `place:ID` signal records, the hooks' environment, live.json's `place` block.
@Suite struct PlaceEventTests {
    func config(_ dir: TemporaryDirectory, gpsd: String, hooks: Bool = true) throws -> String {
        let path = dir.file("logbookd.toml")
        try """
            state_dir = "\(dir.file("state"))"
            runtime_dir = "\(dir.file("run"))"
            [gpsd]
            address = "\(gpsd)"
            [journal]
            commit_interval_s = 1
            [trip]
            trust_system_clock = false
            [hooks]
            on_place_enter = "env | grep ^LOGBOOK_ | sort > \(dir.file("enter.env")).tmp && mv \(dir.file("enter.env")).tmp \(dir.file("enter.env"))"
            on_place_leave = "env | grep ^LOGBOOK_ | sort > \(dir.file("leave.env")).tmp && mv \(dir.file("leave.env")).tmp \(dir.file("leave.env"))"
            [[vehicle]]
            id = "golf"
            name = "Golf GTI"
            [[source]]
            type = "service"
            vehicle = "golf"

            """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// `place:ID` signal records in journal order: (id, enter?, GPS time).
    func placeEvents(_ dir: TemporaryDirectory) throws -> [(id: String, enter: Bool, time: GPSTime?)] {
        try JournalReader(directory: dir.file("state/journal")).entries().compactMap { e in
            guard case .signal(let s) = e.record, s.source.hasPrefix("place:") else { return nil }
            return (String(s.source.dropFirst(6)), s.on, s.gpsTime)
        }
    }

    func place(_ dir: TemporaryDirectory) -> [String: Any]? { readJSONFile(dir.file("run/live.json"))?["place"] as? [String: Any] }

    /// Seconds of the day: gpsd dates the old logs 1024 weeks late, the time of day stays.
    static func timeOfDay(_ t: GPSTime) -> Int64 { ((t.wholeSeconds % 86_400) + 86_400) % 86_400 }
    static func hms(_ t: GPSTime) -> String { String(ISO8601.format(t).dropFirst(11).prefix(8)) + "Z" }

    @Test(.timeLimit(.minutes(4)))
    func aDriveFromOnePlaceToAnotherIsOneLeaveAndOneEnterWithTheirFixTimesAndHooks() async throws {
        let log = TestPaths.gpsLog("munich-gps.nmea")
        let fixes = NMEAReader.fixes(in: try String(contentsOfFile: log, encoding: .utf8))
        let first = try #require(fixes.first), last = try #require(fixes.last)
        // 250 m: the receiver's first fixes are poor (HDOP 24) and refused; the first accepted
        // one is still inside. The drive never comes back within 306 m.
        let start = GeoCircle(name: "start", latitude: first.latitude, longitude: first.longitude, radius: 250)
        // 40 m: the drive passes within 60 m of its end early on; it must arrive only once.
        let end = GeoCircle(name: "end", latitude: last.latitude, longitude: last.longitude, radius: 40)
        // The reference, from the log: the first fix beyond 250 + 50 m of the start; the second
        // of the run of fixes inside the end's circle that lasts to the end of the drive.
        let leaveFix = try #require(fixes.first { start.distance(latitude: $0.latitude, longitude: $0.longitude) > 300 })
        let lastRun = fixes.reversed().prefix { end.contains(latitude: $0.latitude, longitude: $0.longitude) }.reversed()
        let firstInside = try #require(lastRun.first)
        let enterFix = try #require(lastRun.dropFirst().first)

        let dir = try TemporaryDirectory("place-drive")
        defer { dir.remove() }
        // The places go into the journal through a daemon without gpsd, as `logbook places add`
        // does; the second daemon finds them carried in the journal.
        let seed = try DaemonProcess(arguments: ["--config", try config(dir, gpsd: "127.0.0.1:1")])
        let cfg = dir.file("logbookd.toml")
        #expect(await eventually { FileManager.default.fileExists(atPath: dir.file("run/control.sock")) })
        for (id, c, name) in [("start", start, "Start"), ("end", end, "End")] {
            let r = try await runLogbook(["places", "add", id, "--at", "\(c.latitude),\(c.longitude)", "--radius", "\(Int(c.radius))", "--name", name, "--config", cfg])
            try #require(r.status == 0, "places add: \(r.err)")
        }
        _ = await seed.stop()

        let gpsd = try GPSDReplay(log: log, realtime: 20)
        defer { gpsd.stop() }
        let daemon = try DaemonProcess(arguments: ["--config", try config(dir, gpsd: gpsd.address)])
        // Started inside "start" (at 20x it is left within a second of wall time: live.json
        // may never show it), so its arrival is no event.
        await gpsd.waitUntilFinished(timeout: .seconds(200))
        #expect(await eventually(.seconds(30)) { place(dir)?["id"] as? String == "end" })
        #expect(place(dir)?["name"] as? String == "End")
        // The hooks wrote their environment (renamed into place when complete).
        func env(_ name: String) -> String { (try? String(contentsOfFile: dir.file(name), encoding: .utf8)) ?? "" }
        #expect(await eventually { env("enter.env").contains("LOGBOOK_PLACE=end") && env("leave.env").contains("LOGBOOK_PLACE=start") })
        // `logbook status`: "Place   at End since HH:MM" (local time of the arrival's fix; gpsd dates
        // the log 1024 weeks late, so the date is shown too).
        let status = try await runLogbook(["status", "--config", cfg])
        #expect(status.out.contains("Place   at End since "), "status: \(status.out) \(status.err)")
        let stopped = await daemon.stop()
        #expect(stopped?.0 == 0, "log: \(daemon.log.suffix(2000))")

        let events = try placeEvents(dir)
        try #require(events.count == 2, "events: \(events)")
        #expect(events[0].id == "start" && events[0].enter == false)
        #expect(events[1].id == "end" && events[1].enter == true)
        let leaveAt = try #require(events[0].time), enterAt = try #require(events[1].time)
        // The fix that decided, as the log has it (gpsd may drop a fix: within 2 s).
        #expect(abs(Self.timeOfDay(leaveAt) - Self.timeOfDay(leaveFix.time)) <= 2, "leave at \(leaveAt), expected \(leaveFix.time)")
        #expect(abs(Self.timeOfDay(enterAt) - Self.timeOfDay(enterFix.time)) <= 2, "enter at \(enterAt), expected \(enterFix.time)")
        let after = Self.timeOfDay(enterAt) - Self.timeOfDay(firstInside.time)
        print("place-events: drive: 1 leave at \(Self.hms(leaveAt)), 1 enter at \(Self.hms(enterAt)), first fix inside after \(after) s")

        let enterEnv = env("enter.env"), leaveEnv = env("leave.env")
        for line in ["LOGBOOK_EVENT=place_enter", "LOGBOOK_PLACE=end", "LOGBOOK_PLACE_NAME=End", "LOGBOOK_PLACE_EVENT=enter",
                     "LOGBOOK_PLACE_PRIVACY_ZONE=0", "LOGBOOK_TIME=\(ISO8601.format(enterAt))", "LOGBOOK_VEHICLE=golf",
                     "LOGBOOK_VEHICLE_NAME=Golf GTI", "LOGBOOK_LAT=", "LOGBOOK_LON="] {
            #expect(enterEnv.contains(line), "enter hook env lacks \(line): \(enterEnv)")
        }
        for line in ["LOGBOOK_EVENT=place_leave", "LOGBOOK_PLACE=start", "LOGBOOK_PLACE_NAME=Start", "LOGBOOK_PLACE_EVENT=leave",
                     "LOGBOOK_TIME=\(ISO8601.format(leaveAt))", "LOGBOOK_VEHICLE=golf"] {
            #expect(leaveEnv.contains(line), "leave hook env lacks \(line): \(leaveEnv)")
        }
    }
}
