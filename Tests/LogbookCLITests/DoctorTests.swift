// SPDX-License-Identifier: MIT
import Foundation
import LogbookTestSupport
import Testing

/// `logbook doctor` on a broken set-up names every problem with what to do, and on a working
/// one (a real gpsd replaying a drive, a real logbookd) passes with exit 0.
@Suite(.serialized, .timeLimit(.minutes(5))) struct DoctorTests {
    static let checks = ["gpsd", "gps fix", "daemon", "sources", "vehicle", "permissions", "clock", "disk"]

    /// The checks a doctor report marks FAIL, each followed by its `fix:` line.
    func failures(_ out: String) -> [String] {
        let lines = out.split(separator: "\n").map(String.init)
        return lines.indices.compactMap { i in
            guard lines[i].hasPrefix("FAIL  "), i + 1 < lines.count, lines[i + 1].hasPrefix("      fix: ") else { return nil }
            return Self.checks.first { lines[i].dropFirst(6).hasPrefix($0 + " ") }
        }
    }

    @Test func aBrokenSetUpNamesEveryProblemWithWhatToDo() throws {
        let dir = try TemporaryDirectory("lb-doc")
        defer { dir.remove() }
        // A person other than root (nobody) whose groups do not open the journal; no gpsd,
        // no daemon, no vehicle, no source, and a disk that must have more room than any has.
        chmod(dir.path, 0o755)
        try FileManager.default.createDirectory(atPath: dir.file("state/journal"), withIntermediateDirectories: true)
        chmod(dir.file("state"), 0o755)
        chmod(dir.file("state/journal"), 0o700)
        try """
            state_dir = "\(dir.file("state"))"
            runtime_dir = "\(dir.file("run"))"
            [gpsd]
            address = "127.0.0.1:1"
            [control]
            group = ""
            """.write(toFile: dir.file("logbookd.toml"), atomically: true, encoding: .utf8)
        chmod(dir.file("logbookd.toml"), 0o644)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        p.arguments = [
            "--reuid=65534", "--regid=65534", "--clear-groups", "--", TestPaths.product("logbook"),
            "--config", dir.file("logbookd.toml"), "doctor", "--wait", "1", "--min-free-mib", "1000000000",
        ]
        // The system clock is compared with GPS time (the test command turns that off for daemons).
        p.environment = ProcessInfo.processInfo.environment.merging(["LOGBOOKD_TRIP_TRUST_SYSTEM_CLOCK": "true"]) { _, new in new }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 1, "\(text)\(errors)")
        let failed = failures(text)
        #expect(failed == Self.checks, "\(text)")
        #expect(text.contains("not reachable at 127.0.0.1:1: connection refused"), "\(text)")
        #expect(text.contains("no [[source]]") && text.contains("no vehicle is configured"), "\(text)")
        #expect(text.contains("cannot read the journal \(dir.file("state/journal"))") && text.contains("usermod -aG logbook nobody"), "\(text)")
        #expect(text.contains("logbookd is not running") && text.contains("8 of 8 checks failed."), "\(text)")
        print("doctor: broken set-up: \(failed.count) of \(Self.checks.count) checks failed, each with a fix (\(failed.joined(separator: ", ")))")
    }

    @Test func aWorkingSetUpPassesAndAClockOffGPSTimeIsNamed() async throws {
        let dir = try TemporaryDirectory("lb-docok")
        defer { dir.remove() }
        let gpsd = try GPSDReplay(log: TestPaths.gpsLog("munich-gps.nmea"), realtime: 10)
        defer { gpsd.stop() }
        // The recorded drive is dated 2028 (gpsd's 1024-week rule): the daemon judges fixes by
        // GPS time, and the doctor does not compare the clock with it.
        try """
            state_dir = "\(dir.file("state"))"
            runtime_dir = "\(dir.file("run"))"
            [gpsd]
            address = "\(gpsd.address)"
            [control]
            group = ""
            [trip]
            trust_system_clock = false
            [[vehicle]]
            id = "car"
            name = "My car"
            [[source]]
            type = "service"
            vehicle = "car"
            """.write(toFile: dir.file("logbookd.toml"), atomically: true, encoding: .utf8)
        let notify = try NotifySocketListener(path: dir.file("notify"))
        let daemon = try DaemonProcess(arguments: ["--config", dir.file("logbookd.toml")], environment: ["NOTIFY_SOCKET": notify.path])
        #expect(await notify.waitFor("READY=1"), "\(daemon.log)")
        let cli = CLI(config: dir.file("logbookd.toml"))
        let ok = try cli.run(["doctor", "--wait", "20"])
        #expect(ok.status == 0 && failures(ok.out).isEmpty && ok.out.contains("All 8 checks passed."), "\(ok.out)\(ok.err)")
        #expect(ok.out.contains("ok    sources      service (car)") && ok.out.contains("running (") && ok.out.contains("D fix"), "\(ok.out)")

        // Trusting the system clock, the doctor compares it with the replay's GPS time.
        let clock = try cli.run(["doctor", "--wait", "20"], environment: ["LOGBOOKD_TRIP_TRUST_SYSTEM_CLOCK": "true"])
        #expect(clock.status == 1 && failures(clock.out) == ["clock"], "\(clock.out)")
        #expect(clock.out.contains("s behind GPS time"), "\(clock.out)")
        #expect(await daemon.stop()?.0 == 0)
        print("doctor: working set-up: \(Self.checks.count) of \(Self.checks.count) checks passed, exit 0; a clock off GPS time fails only the clock check")
    }
}
