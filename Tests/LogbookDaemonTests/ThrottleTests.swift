// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import LogbookTestSupport
import Testing

/// The Raspberry Pi's under-voltage and throttling flags, from a fake sysfs file the test
/// writes, through the built logbookd: live.json, `logbook status`, signal records; a missing
/// or bad file is reported unavailable once, whatever the number of readings.
@Suite struct ThrottleTests {
    @Test(.timeLimit(.minutes(2)))
    func flagsFromAFakeSysfsFileReachTheLiveStateStatusAndJournal() async throws {
        let dir = try TemporaryDirectory("power")
        defer { dir.remove() }
        let flagsFile = dir.file("sys/get_throttled")
        try FileManager.default.createDirectory(atPath: dir.file("sys"), withIntermediateDirectories: true)
        let config = dir.file("logbookd.toml")
        try """
            state_dir = "\(dir.file("state"))"
            runtime_dir = "\(dir.file("run"))"
            [gpsd]
            address = "127.0.0.1:1"
            [journal]
            commit_interval_s = 1
            [power]
            throttled_file = "\(flagsFile)"
            poll_interval_s = 0.1
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(arguments: ["--config", config])
        func power() -> [String: Any]? { readJSONFile(dir.file("run/live.json"))?["power"] as? [String: Any] }
        func seq() -> Int { readJSONFile(dir.file("run/live.json"))?["seq"] as? Int ?? 0 }
        func write(_ text: String) throws { try text.write(toFile: flagsFile, atomically: true, encoding: .utf8) }

        // No file: unavailable, said once although it is read ten times a second.
        #expect(await eventually { power()?["status"] as? String == "unavailable" }, "log: \(daemon.log)")
        let since = seq()
        #expect(await eventually { seq() >= since + 2 }, "two more publications: about 4 s, 40 readings")
        try write("0\n")
        #expect(await eventually { power()?["status"] as? String == "ok" }, "log: \(daemon.log)")
        try write("50005\n")
        #expect(await eventually { power()?["status"] as? String == "under-voltage" })
        let p = try #require(power())
        #expect(p["throttled_flags"] as? String == "0x50005")
        #expect(p["now"] as? [String] == ["under-voltage", "throttled"])
        #expect(p["since_boot"] as? [String] == ["under-voltage", "throttled"])
        // `logbook status` says it, from the socket.
        let status = try runLogbook(["status", "--runtime-dir", dir.file("run")])
        #expect(status.contains("Power   under-voltage, throttled now · since boot: under-voltage, throttled (0x50005)"), "\(status)")
        try write("50000\n")
        #expect(await eventually { power()?["status"] as? String == "ok" })
        // Garbage is not a reading: unavailable (once), then fine again.
        try write("bogus\n")
        #expect(await eventually { power()?["status"] as? String == "unavailable" })
        let again = seq()
        #expect(await eventually { seq() >= again + 2 })
        try write("10000\n")
        #expect(await eventually { power()?["status"] as? String == "ok" })
        let stopped = await daemon.stop()
        #expect(stopped?.0 == 0)
        let log = daemon.log
        let unavailable = log.components(separatedBy: "under-voltage and throttling: unavailable").count - 1
        #expect(unavailable == 2, "once per spell, not once per reading: \(log)")
        #expect(log.contains("not a hexadecimal flag word"))
        #expect(log.contains("Raspberry Pi: under-voltage"))
        // The journal: the conditions as signal records, in order.
        let signals = try JournalReader(directory: dir.file("state/journal")).entries().compactMap { e -> String? in
            guard case .signal(let s) = e.record, s.source.hasPrefix("pi:") else { return nil }
            return "\(s.source) \(s.on ? "on" : "off")"
        }
        #expect(signals == [
            "pi:under-voltage on", "pi:throttled on",
            "pi:under-voltage off", "pi:throttled off",
            // After "unavailable" the next reading is a first one again: its since-boot bit is on record.
            "pi:under-voltage on", "pi:under-voltage off",
        ], "\(signals)")
    }

    /// `logbook` (the built CLI) with `arguments`; its standard output.
    func runLogbook(_ arguments: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: TestPaths.product("logbook"))
        p.arguments = arguments
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
