// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import LogbookTestSupport
import Testing

/// SIGHUP re-reads the configuration while a trip is recorded (issue 13 §2): what can change
/// live does, the rest is reported as needing a restart, a bad file is refused with the key
/// named, and the trip goes on throughout.
@Suite struct ReloadTests {
    typealias Recording = SignalTests.Recording

    func hup(_ r: Recording, _ config: String) async throws {
        try config.write(toFile: r.configPath, atomically: true, encoding: .utf8)
        let ready = r.notify.messages().filter { $0.contains("READY=1") }.count
        kill(r.daemon.pid, SIGHUP)
        // RELOADING=1 … READY=1, as systemctl reload waits for.
        #expect(await eventually(.seconds(45)) { r.notify.messages().filter { $0.contains("READY=1") }.count > ready }, "no READY=1 after the reload")
    }

    @Test(.timeLimit(.minutes(3)))
    func reloadAppliesLiveSettingsRefusesABadFileAndKeepsTheTrip() async throws {
        let r = try await Recording()
        defer { r.finish() }
        let id = try #require(r.tripID)
        let sysfs = r.dir.file("sys/class/power_supply/ACAD")
        try FileManager.default.createDirectory(atPath: sysfs, withIntermediateDirectories: true)
        try "1\n".write(toFile: sysfs + "/online", atomically: true, encoding: .utf8)
        let hookFile = r.dir.file("trip-ended")
        let power = """
            [[source]]
            type = "power_supply"
            supply = "ACAD"
            sysfs_root = "\(r.dir.file("sys"))"
            poll_interval_s = 0.1
            vehicle = "golf"
            """
        let live = """
            [trip]
            power_off_grace_s = 1
            [hooks]
            on_trip_end = "echo $LOGBOOK_TRIP_END_REASON > \(hookFile)"
            \(power)
            """
        // 1. Live: log level, vehicle name, a new source, trip threshold, a hook. Restart:
        //    gpsd.address (the old gpsd stays connected) and live.interval_s.
        var good = Recording.config(r.dir, gpsd: "127.0.0.1:1", extra: live)
            .replacingOccurrences(of: "name = \"Golf\"", with: "name = \"Golf GTI\"")
            .replacingOccurrences(of: "log_level = \"info\"", with: "log_level = \"notice\"\n[live]\ninterval_s = 0.5")
        try await hup(r, good)
        let summary = "configuration reloaded: applied log_level, vehicle, source, trip, hooks; needs a restart: gpsd.address, live.interval_s"
        #expect(await eventually(.seconds(45)) { r.daemon.log.contains(summary) }, "\(r.daemon.log.suffix(1500))")
        #expect(await eventually(.seconds(45)) { (r.trip?["vehicle"] as? [String: Any])?["name"] as? String == "Golf GTI" })
        var points = r.points()
        #expect(await eventually(.seconds(45)) { r.points() > points + 2 }, "fixes stopped: the old gpsd must stay connected")
        #expect(r.tripID == id)
        print("reload: \(summary.dropFirst("configuration reloaded: ".count)); trip \(id) goes on")

        // 2. A bad file: refused, the key named, nothing changes.
        try await hup(r, good.replacingOccurrences(of: "power_off_grace_s = 1", with: "power_off_grace_s = 1\nmax_eph = 20"))
        #expect(await eventually(.seconds(45)) { r.daemon.log.contains("reload refused") })
        let refusal = r.daemon.log.split(separator: "\n").last { $0.contains("reload refused") } ?? ""
        #expect(refusal.contains("trip.max_eph: unknown key"), "\(refusal)")
        #expect(r.notify.messages().contains { $0.contains("STATUS=reload refused (trip.max_eph: unknown key") })
        points = r.points()
        #expect(await eventually(.seconds(45)) { r.points() > points + 2 })
        #expect(r.daemon.process.isRunning && r.tripID == id)
        print("reload: a bad file is refused and the running configuration kept (trip.max_eph: unknown key); trip \(id) goes on")

        // 3. The service source removed: the power source now holds the same trip. The info
        //    line "SIGHUP: reloading" is no longer logged (level notice since step 1).
        good = good.replacingOccurrences(of: "[[source]]\ntype = \"service\"\nvehicle = \"golf\"\n", with: "")
        try await hup(r, good)
        #expect(await eventually(.seconds(45)) { r.daemon.log.contains("configuration reloaded: applied source") }, "\(r.daemon.log.suffix(800))")
        #expect(r.daemon.log.components(separatedBy: "SIGHUP: reloading the configuration").count - 1 == 1, "info lines still logged")
        // The trip must go on, held by the power source: fixes keep arriving in the same trip.
        points = r.points()
        #expect(await eventually(.seconds(45)) { r.points() > points + 5 }, "the trip must go on, held by the power source")
        #expect(r.tripID == id, "the trip must go on, held by the power source")

        // 4. Ignition off: the trip ends after the new 1 s grace, and the new hook runs.
        try "0\n".write(toFile: sysfs + "/online", atomically: true, encoding: .utf8)
        #expect(await eventually(.seconds(45)) { (r.live?["last_trip"] as? [String: Any])?["end_reason"] as? String == "power:ACAD" })
        #expect(await eventually(.seconds(45)) { (try? String(contentsOfFile: hookFile, encoding: .utf8)) == "power:ACAD\n" }, "the reloaded hook did not run")
        let stopped = await r.daemon.stop()
        #expect(stopped?.0 == 0)
        let trips = try JournalReader(directory: r.dir.file("state/journal")).trips()
        #expect(trips.map(\.id.description) == [id] && trips.first?.endReason == "power:ACAD", "\(trips)")
        let verify = try await runLogbook(["verify", "--state-dir", r.dir.file("state")])
        #expect(verify.status == 0, "\(verify.out)")
    }
}
