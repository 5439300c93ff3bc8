// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import LogbookTestSupport
import Testing

/// Garage writes as a person makes them: `logbook` with no daemon (it takes the journal lock
/// itself) and with the real `logbookd` recording a real gpsd replay (through the socket).
@Suite struct GarageWriteTests {
    /// A state directory with its config file; `daemon` is set while logbookd runs.
    final class Setup: @unchecked Sendable {
        let dir: TemporaryDirectory
        let config: String
        var daemon: DaemonProcess?
        var gpsd: GPSDReplay?

        init(_ name: String) throws {
            dir = try TemporaryDirectory(name)
            config = dir.file("logbookd.toml")
            let supply = dir.file("sys/class/power_supply/ACAD")
            try FileManager.default.createDirectory(atPath: supply, withIntermediateDirectories: true)
            try "1\n".write(toFile: supply + "/online", atomically: true, encoding: .utf8)
            try write(gpsd: "127.0.0.1:1")
        }

        func write(gpsd address: String) throws {
            try """
                state_dir = "\(dir.file("state"))"
                runtime_dir = "\(dir.file("run"))"
                [gpsd]
                address = "\(address)"
                [journal]
                commit_interval_s = 1
                [hooks]
                on_service_due = "echo $LOGBOOK_SERVICE_TASK $LOGBOOK_SERVICE_STATE $LOGBOOK_SERVICE_DUE_AT >> \(dir.file("due.txt"))"
                [[vehicle]]
                id = "golf"
                name = "Golf"
                [[source]]
                type = "power_supply"
                supply = "ACAD"
                sysfs_root = "\(dir.file("sys"))"
                poll_interval_s = 0.1
                vehicle = "golf"
                """.write(toFile: config, atomically: true, encoding: .utf8)
        }

        /// Starts logbookd on a gpsd replaying the Swiss drive; returns once a trip is open.
        func startDaemon() async throws {
            let replay = try GPSDReplay(log: TestPaths.gpsLog("20100403_Z205_Switzerland.txt"), realtime: 20)
            gpsd = replay
            try write(gpsd: replay.address)
            daemon = try DaemonProcess(arguments: ["--config", config], environment: ["LOGBOOKD_DEBUG_CLOCK_SCALE": "20"])
            for _ in 0..<300 {
                if readJSONFile(dir.file("run/live.json"))?["trip"] is [String: Any] { return }
                try await Task.sleep(for: .milliseconds(100))
            }
            Issue.record("no trip started: \(daemon?.log ?? "")")
        }

        func recording() -> Bool { readJSONFile(dir.file("run/live.json"))?["trip"] is [String: Any] }

        /// What the last daemon logged (kept after it stopped).
        var daemonLog = ""

        func stop() async {
            _ = await daemon?.stop()
            daemonLog = daemon?.log ?? ""
            gpsd?.stop()
            daemon = nil
        }

        /// Runs `logbook` on a thread of its own: waiting for a process must not hold one of
        /// the (two) threads of the concurrency pool the other suites' tests run on.
        func logbook(_ args: [String]) async throws -> (status: Int32, out: String, err: String) {
            try await withCheckedThrowingContinuation { done in
                Thread { done.resume(with: Result { try self.runLogbook(args) }) }.start()
            }
        }

        private func runLogbook(_ args: [String]) throws -> (status: Int32, out: String, err: String) {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: TestPaths.product("logbook"))
            p.arguments = ["--config", config] + args
            var env = ProcessInfo.processInfo.environment
            env["TZ"] = "UTC"
            p.environment = env
            let out = Pipe(), err = Pipe()
            p.standardOutput = out
            p.standardError = err
            try p.run()
            let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
        }

        /// The user entries of the journal (no recorded-at: it is the moment of writing).
        func entries() throws -> [String] {
            try JournalReader(directory: dir.file("state/journal")).entries().compactMap { e in
                guard case .entry(let u) = e.record else { return nil }
                return "\(u.type) \(u.action) \(u.subject) \(u.origin) \(u.fields.serialized)"
            }
        }
    }

    /// The same commands, once with no daemon and once through logbookd.
    static let script: [[String]] = [
        ["vehicles", "add", "van", "--name", "Transit", "--registration", "M-XY 42", "--fuel-type", "diesel", "--tank", "80"],
        ["fuel", "add", "--vehicle", "golf", "--odometer", "12000", "--litres", "40.5", "--price", "70.1", "--currency", "eur", "--at", "2026-11-01T08:00:00Z", "--station", "Aral", "--lat", "48.1", "--lon", "11.5"],
        ["fuel", "add", "--vehicle", "van", "--odometer", "50000", "--litres", "60", "--price", "99", "--currency", "CHF", "--at", "2026-11-02T08:00:00Z", "--partial"],
        ["fuel", "amend", "golf@20261101T080000Z", "--litres", "41.5"],
        ["fuel", "void", "van@20261102T080000Z", "--reason", "typo"],
        ["odometer", "add", "--vehicle", "golf", "--odometer", "12100", "--at", "2026-11-03T08:00:00Z"],
        ["vehicles", "edit", "van", "--name", "Transit Custom"],
    ]

    static let refused: [([String], String)] = [
        (["fuel", "add", "--vehicle", "golf", "--odometer", "13000", "--litres=-5", "--price", "1", "--currency", "EUR"], "litres must be between 0 and 2000, got -5"),
        (["fuel", "add", "--vehicle", "polo", "--odometer", "13000", "--litres", "5", "--price", "1", "--currency", "EUR"], "no vehicle \"polo\""),
        (["fuel", "add", "--vehicle", "golf", "--odometer", "11000", "--litres", "5", "--price", "1", "--currency", "EUR", "--at", "2026-11-05T00:00:00Z"], "odometer going backwards"),
        (["vehicles", "add", "polo", "--registration", "mxy42"], "registration mxy42 belongs to vehicle van"),
        (["trips", "classify", "999", "business"], "logbook: no trip 999"),
    ]

    @Test(.timeLimit(.minutes(6))) func bothPathsWriteTheSameRecordsAndConcurrentWritersLoseNothing() async throws {
        let direct = try Setup("gw-direct")
        for args in Self.script {
            let r = try await direct.logbook(args)
            #expect(r.status == 0, "\(args): \(r.err)")
            #expect(r.out.contains("written to the journal; logbookd is not running"), "\(r.out)")
        }
        let viaDaemon = try Setup("gw-daemon")
        try await viaDaemon.startDaemon()
        for args in Self.script {
            let r = try await viaDaemon.logbook(args)
            #expect(r.status == 0, "\(args): \(r.err)")
            #expect(r.out.contains("through logbookd"), "\(r.out)")
        }
        let directEntries = try direct.entries()
        // With no daemon, the writing command rewrote dashboard.json itself.
        let directBoard = try #require(readJSONFile(direct.dir.file("run/dashboard.json")))
        #expect(directBoard["schema"] as? Int == 1 && directBoard["fill_ups"] as? Int == 1)
        #expect(directEntries.count == Self.script.count)
        print("garage-write: \(directEntries.count) entries, e.g. \(directEntries[1])")

        // Bad input: one line, exit 64, nothing written — on both paths.
        for setup in [direct, viaDaemon] {
            for (args, reason) in Self.refused {
                let r = try await setup.logbook(args)
                #expect(r.status == 64 && r.err.contains(reason), "\(args): \(r.status) \(r.err)")
            }
        }
        let before = try viaDaemon.entries().count

        // Two CLI writers at once while the daemon records the replayed drive.
        #expect(viaDaemon.recording())
        let perWriter = 6
        try await withThrowingTaskGroup(of: [(Int32, String)].self) { group in
            for (vehicle, base) in [("golf", 20_000), ("van", 60_000)] {
                group.addTask {
                    var results: [(Int32, String)] = []
                    for i in 0..<perWriter {
                        let r = try await viaDaemon.logbook([
                            "fuel", "add", "--vehicle", vehicle, "--odometer", String(base + 500 * i), "--litres", "30", "--price", "50",
                            "--currency", "EUR", "--at", "2026-11-1\(i)T12:00:00Z",
                        ])
                        results.append((r.status, r.out + r.err))
                    }
                    return results
                }
            }
            for try await results in group {
                for (status, text) in results { #expect(status == 0 && text.contains("through logbookd"), "\(text)") }
            }
        }
        #expect(viaDaemon.recording(), "the drive was still being recorded")
        let written = ContinuousClock.now
        let board = try await Self.waitForDashboard(viaDaemon) { ($0["fill_ups"] as? Int) == 1 + 2 * perWriter }
        print("garage-dashboard: fill-ups in dashboard.json \(written.duration(to: .now)) after the last write")
        #expect(board != nil, "dashboard.json caught up within 10 s of a fuel write")

        // A trip end: the supply goes off and the trip is stopped; the dashboard shows its distance.
        try "0\n".write(toFile: viaDaemon.dir.file("sys/class/power_supply/ACAD/online"), atomically: true, encoding: .utf8)
        // (Under load the replay may have ended the trip already: then `trip stop` says so.)
        _ = try await viaDaemon.logbook(["trip", "stop", "--json", "--runtime-dir", viaDaemon.dir.file("run")])
        let stopped = ContinuousClock.now
        var metres: Double?
        for _ in 0..<100 {
            let live = readJSONFile(viaDaemon.dir.file("run/live.json"))
            if live?["trip"] as? [String: Any] == nil, let m = (live?["last_trip"] as? [String: Any])?["distance_m"] as? Double {
                metres = m
                break
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        let ended = try #require(metres, "the trip ended")
        let afterEnd = try await Self.waitForDashboard(viaDaemon) { abs(($0["total_distance_km"] as? Double ?? 0) - ended / 1000) < 0.0011 }
        print("garage-dashboard: trip end (\(ended) m) in dashboard.json \(stopped.duration(to: .now)) after it")
        #expect(afterEnd != nil, "dashboard.json shows the ended trip within 10 s")
        await viaDaemon.stop()

        // The daemon first journals the configuration's [[vehicle]] (the registry's seed, origin
        // config); the CLI alone never starts the daemon, so its journal has none.
        let all = try viaDaemon.entries()
        #expect(all.first == "vehicle add golf config {\"name\":\"Golf\"}", "\(all.first ?? "nothing")")
        let daemonEntries = all.filter { !$0.contains(" config {") }
        #expect(Array(daemonEntries.prefix(Self.script.count)) == directEntries, "both paths wrote the same records")
        #expect(all.count == before + 2 * perWriter)
        print("garage-write: daemon path == direct path for \(directEntries.count) entries; \(2 * perWriter) concurrent writes during a recording, \(daemonEntries.count) entries in all")

        // The journal verifies, and the index sees every fill-up.
        let verify = try await viaDaemon.logbook(["verify", "--state-dir", viaDaemon.dir.file("state")])
        #expect(verify.status == 0, "\(verify.out) \(verify.err) \((try? FileManager.default.contentsOfDirectory(atPath: viaDaemon.dir.file("state/journal")))?.sorted() ?? []) \(viaDaemon.daemonLog)")
        let stats = try await viaDaemon.logbook(["stats", "--json"])
        #expect(stats.status == 0, "\(stats.err)")
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(stats.out.utf8)) as? [String: Any])
        #expect(doc["fill_ups"] as? Int == 1 + 2 * perWriter)  // golf's first; van's was voided
        // The replayed drive's trip (its GPS clock reads 2029: the log predates a week rollover),
        // as far as the replay had got when the test stopped it: a distance, not a fixed figure.
        let total = doc["total_distance_km"] as? Double ?? 0
        #expect(ended > 0 && abs(total - ended / 1000) < 0.0011, "stats \(total) km, the trip ended at \(ended) m")
        #expect(abs(((doc["total_spend"] as? [String: Any])?["EUR"] as? Double ?? 0) - 670.1) < 1e-9)
        print("garage-write: stats after the writes: \(stats.out)")
        print("garage-write: trips: \(try await viaDaemon.logbook(["trips", "list"]).out)")
        let list = try await viaDaemon.logbook(["fuel", "list", "--history"])
        #expect(list.out.contains("golf@20261101T080000Z") && list.out.contains("changed"))
        #expect(list.out.contains("void"))

        try await checkReport(viaDaemon)
        try await checkService(direct)
        try await checkImport(direct)
    }

    /// Imports: a file with bad rows writes nothing (or the good rows with --skip-bad).
    func checkImport(_ s: Setup) async throws {
        let fixtures = TestPaths.packageRoot.appendingPathComponent("fixtures/garage").path
        let before = try s.entries().count
        let bad = try await s.logbook(["fuel", "import", fixtures + "/lubelogger-bad.csv", "--format", "lubelogger", "--vehicle", "golf", "--currency", "EUR", "--date-order", "mdy"])
        #expect(bad.status == 64)
        for line in [3, 4, 5, 6] { #expect(bad.err.contains("lubelogger-bad.csv:\(line): "), "\(bad.err)") }
        #expect(bad.err.contains("odometer going backwards"))
        #expect(try s.entries().count == before, "a bad file writes nothing")
        let good = try await s.logbook(["fuel", "import", fixtures + "/lubelogger-fuel.csv", "--format", "lubelogger", "--vehicle", "golf", "--currency", "EUR", "--date-order", "mdy"])
        #expect(good.status == 0 && good.out.hasPrefix("Imported 4 fill-ups for golf"), "\(good.out) \(good.err)")
        let fuelly = try await s.logbook(["fuel", "import", fixtures + "/fuelly-fuel.csv", "--format", "fuelly", "--vehicle", "van", "--currency", "USD", "--imperial", "--date-order", "mdy"])
        #expect(fuelly.status == 0 && fuelly.out.hasPrefix("Imported 4 fill-ups for van"), "\(fuelly.out) \(fuelly.err)")
        let skip = try await s.logbook(["fuel", "import", fixtures + "/lubelogger-bad.csv", "--format", "lubelogger", "--vehicle", "van", "--currency", "EUR", "--date-order", "mdy", "--skip-bad"])
        #expect(skip.status == 0 && skip.out.hasPrefix("Imported 1 fill-up for van, skipped 4 bad rows"), "\(skip.out) \(skip.err)")
        let entries = try s.entries()
        #expect(entries.count == before + 9)
        #expect(entries.last?.contains(" import ") == true)
        print("garage-import: \(good.out)garage-import: \(fuelly.out)garage-import: \(skip.out)")
    }

    /// A task overdue by date: the writing command's dashboard refresh runs the hook once.
    func checkService(_ s: Setup) async throws {
        let add = try await s.logbook([
            "service", "add", "golf-oil", "--vehicle", "golf", "--name", "Oil change", "--every-km", "15000", "--every-months", "12",
            "--last-done", "2025-01-31T09:00:00Z", "--last-done-km", "2000",
        ])
        #expect(add.status == 0, "\(add.err)")
        #expect(add.err.contains("service overdue: golf Oil change (task golf-oil)"))
        let list = try await s.logbook(["service", "list", "--json"])
        let tasks = try #require(try JSONSerialization.jsonObject(with: Data(list.out.utf8)) as? [[String: Any]])
        #expect(tasks.first?["state"] as? String == "overdue")
        #expect(tasks.first?["due_at"] as? String == "2026-01-31T09:00:00Z")
        #expect(tasks.first?["due_km"] as? Double == 17_000)
        #expect(try await s.logbook(["dashboard", "refresh"]).status == 0)  // no second announcement
        let due = try String(contentsOfFile: s.dir.file("due.txt"), encoding: .utf8)
        #expect(due == "golf-oil overdue 2026-01-31T09:00:00Z\n")
        #expect(try await s.logbook(["service", "done", "golf-oil", "--odometer", "12200", "--at", "2026-11-04T00:00:00Z"]).status == 0)
        let after = try #require(try JSONSerialization.jsonObject(with: Data(try await s.logbook(["service", "list", "--json"]).out.utf8)) as? [[String: Any]])
        #expect(after.first?["due_at"] as? String == "2027-11-04T00:00:00Z" && after.first?["due_km"] as? Double == 27_200)
        print("garage-service: \(try await s.logbook(["service", "list"]).out)")
    }
}
