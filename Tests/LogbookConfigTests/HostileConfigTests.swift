// SPDX-License-Identifier: MIT
import Foundation
import LogbookConfig
import LogbookTestSupport
import Testing

/// Issue 28, item 5 and "also seen": configuration files built to hurt — 100,000 levels of
/// nesting (each program exits 78 with one line instead of SIGSEGV), a 50 MB value (the
/// error quotes a bounded part of it).
@Suite struct HostileConfigTests {
    static let depth = 100_000

    /// The hostile documents, by name.
    static var nested: [(String, String)] {
        [
            ("arrays", "gpsd = " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "\n"),
            ("inline tables", "gpsd = " + String(repeating: "{a=", count: depth) + "1" + String(repeating: "}", count: depth) + "\n"),
            ("dotted key", "trip." + Array(repeating: "a", count: depth).joined(separator: ".") + " = 1\n"),
            ("table header", "[trip." + Array(repeating: "a", count: depth).joined(separator: ".") + "]\n"),
        ]
    }

    @Test func theParserRefusesDeepNestingWithALine() {
        for (name, text) in Self.nested {
            do {
                _ = try ConfigValue.parseTOML(text, file: "deep.toml")
                Issue.record("\(name): parsed")
            } catch {
                #expect(error.problem.contains("nested deeper than \(ConfigValue.maximumNesting) levels"), "\(name): \(error)")
                #expect("\(error)".utf8.count < 300, "\(name)")
            }
        }
        // The limit itself still parses (the key is one level, each array one more).
        let n = ConfigValue.maximumNesting - 1
        #expect(throws: Never.self) {
            _ = try ConfigValue.parseTOML("a = " + String(repeating: "[", count: n) + String(repeating: "]", count: n), file: "ok.toml")
        }
        #expect(throws: ConfigError.self) {
            _ = try ConfigValue.parseTOML("a = " + String(repeating: "[", count: n + 1) + String(repeating: "]", count: n + 1), file: "ok.toml")
        }
    }

    @Test func aHugeValueIsQuotedBoundedly() throws {
        let huge = String(repeating: "x", count: 50 << 20)
        // A bad value (an unquoted token) and a string where a table is expected, read by the
        // daemon's reader through the environment's `got "…"` path as well.
        for text in ["gpsd = " + huge + "\n", "log_level = \"" + huge + "\"\n"] {
            let error: ConfigError
            do {
                let root = try ConfigValue.parseTOML(text, file: "big.toml")
                var reader = ConfigReader(root: root, file: "big.toml", environment: ["LOGBOOKD_LOG_LEVEL": huge])
                _ = try reader.integer("log_level", in: 0...10)
                Issue.record("accepted")
                continue
            } catch let e {
                error = e
            }
            #expect("\(error)".utf8.count < 600, "\("\(error)".prefix(200))")
            #expect("\(error)".contains("bytes"), "the error says how long the value was: \("\(error)".prefix(300))")
        }
    }

    /// Every program that reads the file: exit 78 and one line on stderr, within 60 s.
    @Test(arguments: ["logbookd", "logbook", "logbook-web", "logbook-uplink"])
    func everyProgramExits78(_ program: String) async throws {
        let dir = try TemporaryDirectory("cfg")
        defer { dir.remove() }
        var cases = Self.nested
        // A key all four read (a relative path is refused), with a 50 MB value.
        cases.append(("50 MB value", "state_dir = \"" + String(repeating: "y", count: 50 << 20) + "\"\n"))
        for (name, text) in cases {
            let file = dir.file("logbookd.toml")
            try text.write(toFile: file, atomically: false, encoding: .utf8)
            var args = ["--config", file]
            if program == "logbook" { args = ["trips", "list"] + args }
            if program == "logbookd" { args += ["--state-dir", dir.file("state"), "--runtime-dir", dir.file("run")] }
            let r = try await run(program, args)
            #expect(r.status == 78, "\(program) on \(name): exit \(r.status) \(r.err.prefix(300))")
            #expect(r.err.split(separator: "\n").count == 1 && r.err.utf8.count < 1000, "\(program) on \(name): \(r.err.utf8.count) bytes on stderr")
        }
    }

    /// Runs `program`; stderr through a file (a program that does not exit cannot stall the
    /// test on a pipe), killed after 60 s.
    private func run(_ program: String, _ args: [String]) async throws -> (status: Int32, err: String) {
        let dir = try TemporaryDirectory("run")
        defer { dir.remove() }
        _ = FileManager.default.createFile(atPath: dir.file("err"), contents: nil)
        let err = try #require(FileHandle(forWritingAtPath: dir.file("err")))
        let p = Process()
        p.executableURL = URL(fileURLWithPath: TestPaths.product(program))
        p.arguments = args
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "NOTIFY_SOCKET")
        p.environment = env
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let deadline = ContinuousClock.now + .seconds(60)
        while p.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        if p.isRunning { kill(p.processIdentifier, SIGKILL) }
        p.waitUntilExit()
        try err.close()
        return (p.terminationStatus, String(decoding: FileManager.default.contents(atPath: dir.file("err")) ?? Data(), as: UTF8.self))
    }
}
