// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import LogbookTestSupport
import Testing

/// The control socket of the real logbookd: manual trips, bad clients, stalled watchers.
@Suite struct ManualTripTests {
    @Test(.timeLimit(.minutes(2)))
    func manualTripOverTheSocketSurvivesGarbageAndStalledWatchers() async throws {
        let dir = try TemporaryDirectory("man")
        defer { dir.remove() }
        let gpsd = try GPSDReplay(log: TestPaths.gpsLog("munich-gps.nmea"), realtime: 20)
        defer { gpsd.stop() }
        let cfg = dir.file("logbookd.toml")
        try """
            state_dir = "\(dir.file("state"))"
            runtime_dir = "\(dir.file("run"))"
            [gpsd]
            address = "\(gpsd.address)"
            [[vehicle]]
            id = "golf"
            name = "Golf"
            """.write(toFile: cfg, atomically: true, encoding: .utf8)
        let notify = try NotifySocketListener(path: dir.file("notify"))
        let daemon = try DaemonProcess(arguments: ["--config", cfg], environment: ["NOTIFY_SOCKET": notify.path])
        #expect(await notify.waitFor("READY=1"))
        // READY=1 comes only once the socket listens.
        let socket = dir.file("run/control.sock")
        #expect(FileManager.default.fileExists(atPath: socket))
        let run = ["--runtime-dir", dir.file("run")]

        let started = try await runLogbook(run + ["trip", "start", "--vehicle", "golf"])
        #expect(started.status == 0, "\(started)")
        #expect(try await runLogbook(run + ["trip", "start", "--vehicle", "polo"]).status == 1)

        // A watcher that never reads, and bad clients of every kind.
        let stalled = try TestClient(path: socket)
        try await stalled.send("{\"cmd\":\"watch\"}\n")
        let bad = try TestClient(path: socket)
        for line in ["garbage", "[1,2]", "{\"cmd\":\"teleport\"}", "{\"cmd\":5}"] {
            try await bad.send(line + "\n")
            let reply = try await bad.readJSON()
            #expect(reply["error"]?["code"] != nil, "\(line) → \(reply)")
        }
        try await bad.send(bytes: [0xFF, 0xFE, 0x0A])
        #expect(try await bad.readJSON()["error"]?["code"] == .string("bad_request"))
        try await bad.send(bytes: [UInt8](repeating: UInt8(ascii: "x"), count: 10 << 20) + [0x0A])
        #expect(try await bad.readJSON(timeout: .seconds(20))["error"]?["code"] == .string("too_long"))
        try await bad.send("{\"cmd\":\"status\",\"id\":1}\n")
        let status = try await bad.readJSON()
        #expect(status["schema"] == .number(1) && status["id"] == .number(1))
        #expect(status["trip"]?["vehicle"]?["id"] == .string("golf"))

        // live.json keeps its pace while the stalled watcher's buffer fills.
        func seq() -> Int { readJSONFile(dir.file("run/live.json"))?["seq"] as? Int ?? 0 }
        let seq1 = seq()
        #expect(await eventually { seq() > seq1 + 2 }, "live.json stalled: seq \(seq()) after \(seq1)")
        #expect(daemon.process.isRunning)

        let stopped = try await runLogbook(run + ["trip", "stop"])
        #expect(stopped.status == 0, "\(stopped)")
        _ = await daemon.stop()
        let trips = try JournalReader(directory: dir.file("state/journal")).trips()
        let trip = try #require(trips.first)
        #expect(trips.count == 1)
        #expect(trip.startReason == "manual" && trip.endReason == "manual" && trip.vehicleID == "golf")
        #expect(trip.summary.pointCount > 10)
        _ = stalled
    }
}
