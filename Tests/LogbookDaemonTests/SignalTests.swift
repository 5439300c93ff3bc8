// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import LogbookTestSupport
import Testing

/// Every signal the daemon can get, sent to the built logbookd recording a trip from a real
/// gpsd replay (issue 13 §2), and the SIGHUP reload.
@Suite struct SignalTests {
    /// A daemon with a `service` trip open on a replay of the Munich drive.
    struct Recording {
        let dir: TemporaryDirectory
        let gpsd: GPSDReplay
        let notify: NotifySocketListener
        let daemon: DaemonProcess
        var configPath: String { dir.file("logbookd.toml") }
        var live: [String: Any]? { readJSONFile(dir.file("run/live.json")) }
        var trip: [String: Any]? { live?["trip"] as? [String: Any] }
        var tripID: String? { trip?["id"] as? String }

        static func config(_ dir: TemporaryDirectory, gpsd: String, extra: String = "") -> String {
            """
            state_dir = "\(dir.file("state"))"
            runtime_dir = "\(dir.file("run"))"
            log_level = "info"
            [gpsd]
            address = "\(gpsd)"
            [journal]
            commit_interval_s = 1
            [[vehicle]]
            id = "golf"
            name = "Golf"
            [[source]]
            type = "service"
            vehicle = "golf"
            \(extra)
            """
        }

        init() async throws {
            dir = try TemporaryDirectory("sig")
            gpsd = try GPSDReplay(log: TestPaths.gpsLog("munich-gps.nmea"), realtime: 10)
            notify = try NotifySocketListener(path: dir.file("notify"))
            try Self.config(dir, gpsd: gpsd.address).write(toFile: dir.file("logbookd.toml"), atomically: true, encoding: .utf8)
            daemon = try DaemonProcess(arguments: ["--config", dir.file("logbookd.toml")], environment: ["NOTIFY_SOCKET": notify.path])
            #expect(await notify.waitFor("READY=1"))
            let started = await eventually { (trip?["points"] as? Int ?? 0) > 3 }
            #expect(started, "no trip with points: \(daemon.log.suffix(800))")
        }

        func points() -> Int { trip?["points"] as? Int ?? 0 }

        func finish() {
            gpsd.stop()
            dir.remove()
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func hupUsr1Usr2PipeAndAlrmLeaveTheTripRecording() async throws {
        let r = try await Recording()
        defer { r.finish() }
        let id = try #require(r.tripID)
        // What each signal must leave in the log (SIGPIPE: nothing, it is ignored).
        let expected: [(Int32, String, String?)] = [
            (SIGHUP, "HUP", "configuration reloaded: nothing changed"),
            (SIGUSR1, "USR1", "SIGUSR1: journal committed"),
            (SIGUSR2, "USR2", "SIGUSR2: recording trip \(id)"),
            (SIGPIPE, "PIPE", nil),
            (SIGALRM, "ALRM", "signal=SIGALRM"),
        ]
        for (signal, name, line) in expected {
            let before = r.points()
            kill(r.daemon.pid, signal)
            if let line { #expect(await eventually { r.daemon.log.contains(line) }, "SIG\(name): no \"\(line)\" in \(r.daemon.log.suffix(600))") }
            // Still running, same trip, still taking points.
            #expect(await eventually { r.points() > before + 2 }, "SIG\(name): the trip stopped growing")
            #expect(r.daemon.process.isRunning, "SIG\(name) ended the daemon")
            #expect(r.tripID == id, "SIG\(name) changed the trip")
            print("signals: SIG\(name): still running, trip \(id) goes on (\(r.points()) points)")
        }
        #expect(r.notify.messages().contains { $0.hasPrefix("RELOADING=1\nMONOTONIC_USEC=") })
        let stopped = await r.daemon.stop(signal: SIGTERM)
        #expect(stopped?.0 == 0)
        let trips = try JournalReader(directory: r.dir.file("state/journal")).trips()
        #expect(trips.count == 1 && trips.first?.endReason == "shutdown", "\(trips)")
    }

    @Test(.timeLimit(.minutes(2)), arguments: [(SIGTERM, "TERM"), (SIGINT, "INT")])
    func termAndIntCloseTheTripAndExitZero(_ signal: Int32, _ name: String) async throws {
        let r = try await Recording()
        defer { r.finish() }
        let id = try #require(r.tripID)
        let stopped = try #require(await r.daemon.stop(signal: signal))
        #expect(stopped.0 == 0, "SIG\(name): exit \(stopped.0)")
        // Closing the trip is one fsync'd append; a bound for a hang, not a speed target
        // (systemd's TimeoutStopSec= is 30 s), on two cores shared with a pass of tests.
        #expect(stopped.1 < 10)
        let trips = try JournalReader(directory: r.dir.file("state/journal")).trips()
        let trip = try #require(trips.first)
        #expect(trips.count == 1 && trip.id.description == id && trip.endReason == "shutdown", "\(trips)")
        let verify = try await runLogbook(["verify", "--state-dir", r.dir.file("state")])
        #expect(verify.status == 0 && verify.out.contains("OK"), "\(verify.out)")
        print("signals: SIG\(name): exit 0 in \(String(format: "%.2f", stopped.1)) s, trip \(id) closed \"shutdown\", verify ok")
        #expect(r.notify.messages().contains { $0.hasPrefix("STOPPING=1") })
    }
}
