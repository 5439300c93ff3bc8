// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import LogbookTestSupport
import Testing

/// Cranking brown-out through the built daemon: kill -9 mid-drive and a quick restart on the
/// same gpsd replay give one trip — reopened, its gap recorded — in the journal and in the
/// index `logbook` reads (issue 29 §2). The whole-machine version is scripts/powercut-vm.sh.
@Suite struct ReopenDaemonTests {
    @Test(.timeLimit(.minutes(2)))
    func aKillAndAQuickRestartMidDriveGiveOneTrip() async throws {
        let dir = try TemporaryDirectory("reopen")
        defer { dir.remove() }
        // Munich at real time: city speeds, so the car moves a few metres during the restart.
        let gpsd = try GPSDReplay(log: TestPaths.gpsLog("munich-gps.nmea"), realtime: 1)
        defer { gpsd.stop() }
        let config = dir.file("logbookd.toml")
        try """
            state_dir = "\(dir.file("state"))"
            runtime_dir = "\(dir.file("run"))"
            [gpsd]
            address = "\(gpsd.address)"
            [journal]
            commit_interval_s = 1
            [index]
            path = "\(dir.file("index.sqlite"))"
            [[vehicle]]
            id = "golf"
            [[source]]
            type = "service"
            vehicle = "golf"
            """.write(toFile: config, atomically: true, encoding: .utf8)
        func trip() -> [String: Any]? { readJSONFile(dir.file("run/live.json"))?["trip"] as? [String: Any] }
        let first = try DaemonProcess(arguments: ["--config", config])
        #expect(await eventually(.seconds(60)) { (trip()?["points"] as? Int ?? 0) >= 8 }, "log: \(first.log.suffix(600))")
        // The power goes: nothing is closed, what was committed stays.
        kill(first.pid, SIGKILL)
        _ = await first.waitForExit(timeout: .seconds(5))
        let second = try DaemonProcess(arguments: ["--config", config])
        #expect(await eventually(.seconds(20)) { second.log.contains("trip reopened") }, "log: \(second.log.suffix(1500))")
        #expect(await eventually(.seconds(20)) { trip()?["id"] as? String == "1" && (trip()?["points"] as? Int ?? 0) >= 12 })
        #expect(!second.log.contains("trip started"), "a second trip was started: \(second.log.suffix(1500))")
        let stopped = await second.stop()
        #expect(stopped?.0 == 0)

        // The journal: one trip, ended `recovered` by the restart's recovery, reopened, ended `shutdown`.
        let reader = try JournalReader(directory: dir.file("state/journal"))
        let trips = try reader.trips()
        #expect(trips.count == 1 && trips.first?.endReason == "shutdown" && trips.first?.startReason == "service", "\(trips)")
        let kinds = try reader.entries().compactMap { e -> String? in
            switch e.record {
            case .tripStarted: "started"
            case .tripEnded(let t): "ended \(t.reason)"
            case .tripReopened(let r): "reopened after \(r.previousEndReason)"
            default: nil
            }
        }
        #expect(kinds == ["started", "ended recovered", "reopened after recovered", "ended shutdown"], "\(kinds)")
        let points = try reader.points(of: TripID(1))
        #expect(points.count == trips.first?.summary.pointCount)

        // The index (`logbook trips`): one trip, the restart as a gap.
        let list = try runLogbook(["--config", config, "trips", "list", "--json"])
        let listed = (try JSONSerialization.jsonObject(with: Data(list.utf8)) as? [String: Any])?["trips"] as? [[String: Any]]
        #expect(listed?.count == 1, "\(list)")
        #expect(listed?.first?["end_reason"] as? String == "shutdown")
        #expect(listed?.first?["points"] as? Int == points.count)
        let show = try runLogbook(["--config", config, "trips", "show", "1", "--json"])
        let gaps = (try JSONSerialization.jsonObject(with: Data(show.utf8)) as? [String: Any])?["gaps"] as? [[String: Any]]
        #expect((gaps?.count ?? 0) >= 1, "the restart shows as a gap: \(show.prefix(800))")
        print("reopen: kill -9 mid-drive and a restart: 1 trip, \(points.count) points, gaps \(gaps?.map { "\($0["seconds"] ?? "?") s" } ?? [])")
    }

    /// `logbook` (the built CLI); its standard output.
    func runLogbook(_ arguments: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: TestPaths.product("logbook"))
        p.arguments = arguments
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
