// SPDX-License-Identifier: MIT
import Foundation
import LogbookTestSupport
import Testing

@Suite struct HookTests {
    @Test(.timeLimit(.minutes(1)))
    func hooksGetTheTripAndAHangingHookNeverStallsRecording() async throws {
        let dir = try TemporaryDirectory("hook")
        defer { dir.remove() }
        let out = dir.file("hook.env")
        let cfg = dir.file("logbookd.toml")
        // The start hook records its environment, then hangs far past the timeout.
        try """
            state_dir = "\(dir.file("state"))"
            runtime_dir = "\(dir.file("run"))"
            [gpsd]
            address = "127.0.0.1:1"
            [hooks]
            on_trip_start = "env | grep ^LOGBOOK_ > \(out); echo started-hook; sleep 120"
            on_trip_end = "echo end $LOGBOOK_TRIP_ID $LOGBOOK_TRIP_END_REASON >> \(out)"
            timeout_s = 1
            [[vehicle]]
            id = "golf"
            name = "Golf GTI"
            [[source]]
            type = "service"
            vehicle = "golf"
            """.write(toFile: cfg, atomically: true, encoding: .utf8)
        let d = try DaemonProcess(arguments: ["--config", cfg])
        // The hook's environment, once grep wrote every line the test checks (env's order is its own).
        func written() -> String { (try? String(contentsOfFile: out, encoding: .utf8)) ?? "" }
        let expected = ["LOGBOOK_EVENT=start", "LOGBOOK_TRIP_ID=1", "LOGBOOK_TRIP_VEHICLE=golf", "LOGBOOK_TRIP_VEHICLE_NAME=Golf GTI", "LOGBOOK_TRIP_REASON=service"]
        _ = await eventually { expected.allSatisfy(written().contains) }
        let env = written()
        #expect(env.contains("LOGBOOK_EVENT=start"))
        #expect(env.contains("LOGBOOK_TRIP_ID=1"))
        #expect(env.contains("LOGBOOK_TRIP_VEHICLE=golf"))
        #expect(env.contains("LOGBOOK_TRIP_VEHICLE_NAME=Golf GTI"))
        #expect(env.contains("LOGBOOK_TRIP_REASON=service"))
        // While the hook hangs, live.json keeps being replaced.
        let live = dir.file("run/live.json")
        let seq1 = readJSONFile(live)?["seq"] as? Int ?? 0
        func seq() -> Int { readJSONFile(live)?["seq"] as? Int ?? 0 }
        _ = await eventually { seq() >= seq1 + 2 && d.log.contains("killed after 1.0 s timeout") }
        let seq2 = seq()
        #expect(seq2 >= seq1 + 2, "live.json stalled while a hook hung")
        #expect(d.log.contains("killed after 1.0 s timeout"), "log: \(d.log)")
        #expect(d.log.contains("started-hook"))
        let stopped = await d.stop()
        #expect(stopped?.0 == 0)
        #expect(await eventually { written().contains("end 1 shutdown") }, "\(written())")
    }
}
