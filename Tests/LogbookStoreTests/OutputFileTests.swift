// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookTestSupport
import Testing

/// Issue 28, item 1: `-o`, `--svg`, `--html` replace nothing but a regular file (a FIFO, a
/// device node or a symlink at the path is refused and left as it was), and every write
/// error, stdout's included, is one line on stderr and exit 1.
@Suite(.serialized) struct OutputFileTests {
    /// A journal with one trip (2030) and its index, for the commands to read.
    static func journal() async throws -> StoreDir {
        let dir = StoreDir()
        var script = try JournalScript.open(dir)
        try script.trip(points: 40)
        try await script.close()
        return dir
    }

    /// Runs `logbook` with stdout to `stdout` (a path) or a pipe; gives up after 60 s.
    static func logbook(_ dir: StoreDir, _ args: [String], stdout: String? = nil, umask mask: mode_t? = nil) throws
        -> (status: Int32, out: String, err: String)
    {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: mask == nil ? TestPaths.product("logbook") : "/bin/sh")
        let command = ["--state-dir", dir.state, "--runtime-dir", dir.path + "/run"] + args
        if let mask {
            p.arguments = ["-c", "umask \(String(mask, radix: 8)); exec \"$0\" \"$@\"", TestPaths.product("logbook")] + command
        } else {
            p.arguments = command
        }
        var env = ProcessInfo.processInfo.environment
        env["TZ"] = "UTC"
        env.removeValue(forKey: "LOGBOOKD_CONFIG")
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = try stdout.map { path in try #require(FileHandle(forWritingAtPath: path)) } ?? out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let timer = DispatchSource.makeTimerSource()
        timer.schedule(deadline: .now() + 60)
        timer.setEventHandler { kill(p.processIdentifier, SIGKILL) }
        timer.resume()
        defer { timer.cancel() }
        let o = stdout == nil ? out.fileHandleForReading.readDataToEndOfFile() : Data()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    /// What is at `path`: its `lstat` type and, for a regular file, its bytes.
    static func snapshot(_ path: String) -> (type: mode_t, bytes: Data?) {
        var st = stat()
        guard lstat(path, &st) == 0 else { return (0, nil) }
        let type = st.st_mode & S_IFMT
        return (type, type == S_IFREG ? FileManager.default.contents(atPath: path) : nil)
    }

    @Test func outputsNeverReplaceAnythingButARegularFile() async throws {
        let dir = try await Self.journal()
        defer { dir.cleanup() }
        let fifo = dir.path + "/fifo", device = dir.path + "/null", link = dir.path + "/link", secret = dir.path + "/secret"
        #expect(mkfifo(fifo, 0o600) == 0)
        try "do not touch\n".write(toFile: secret, atomically: false, encoding: .utf8)
        #expect(symlink(secret, link) == 0)
        // A character device like /dev/null (major 1, minor 3), made here so the real one is
        // never at stake; without CAP_MKNOD that case is skipped.
        let haveDevice = mknod(device, S_IFCHR | 0o666, (1 << 8) | 3) == 0
        var targets = [fifo, link]
        if haveDevice { targets.append(device) }
        let commands: [(String, [String])] = [
            ("trips export -o", ["trips", "export", "1", "--format", "gpx", "-o"]),
            ("report -o", ["report", "--year", "2030", "-o"]),
            ("trips show --svg", ["trips", "show", "1", "--svg"]),
            ("trips show --html", ["trips", "show", "1", "--html"]),
        ]
        for target in targets {
            let before = Self.snapshot(target)
            for (name, args) in commands {
                let r = try Self.logbook(dir, args + [target])
                let lines = r.err.split(separator: "\n")
                #expect(r.status == 1, "\(name) \(target): exit \(r.status), \(r.err)")
                #expect(lines.count == 1 && r.err.contains("not a regular file"), "\(name) \(target): \(r.err)")
                #expect(!r.err.contains("wrote"), "\(name) \(target)")
                let after = Self.snapshot(target)
                #expect(after.type == before.type, "\(name) replaced \(target)")
            }
        }
        #expect(Self.snapshot(secret).bytes == Data("do not touch\n".utf8), "the symlink's target was written")
        // Nothing left behind by the refusals: only what the test made (and the index).
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".tmp") }
        #expect(left.isEmpty, "\(left)")
        // A regular file and a new name are written; `-` is standard output.
        let plain = dir.path + "/trip.gpx"
        try "old".write(toFile: plain, atomically: false, encoding: .utf8)
        #expect(try Self.logbook(dir, ["trips", "export", "1", "--format", "gpx", "-o", plain]).status == 0)
        #expect(String(decoding: FileManager.default.contents(atPath: plain) ?? Data(), as: UTF8.self).hasPrefix("<?xml"))
        let dash = try Self.logbook(dir, ["trips", "export", "1", "--format", "csv", "-o", "-"])
        #expect(dash.status == 0 && dash.out.hasPrefix("trip_id,") && !dash.err.contains("wrote"), "\(dash.err)")
        print("output-file: refused \(targets.count) kinds (FIFO, symlink\(haveDevice ? ", character device" : "")) × \(commands.count) options, exit 1 each, nothing replaced")
    }

    @Test func aFullDeviceOnStdoutIsAnError() async throws {
        let dir = try await Self.journal()
        defer { dir.cleanup() }
        #expect(try Self.logbook(dir, ["reindex"]).status == 0)
        let commands: [[String]] = [
            ["report", "--year", "2030"], ["report", "--year", "2030", "--format", "html"], ["trips", "list", "--json"],
            ["trips", "list"], ["stats", "--json"], ["verify"], ["trips", "export", "1", "--format", "gpx"],
            ["trips", "export", "1", "--format", "geojson"], ["trips", "export", "1", "--format", "csv"],
            ["trips", "export", "1", "--format", "csv", "-o", "-"],
        ]
        for args in commands {
            // The same command succeeds to a pipe, so the failure below is the device's.
            let ok = try Self.logbook(dir, args)
            #expect(ok.status == 0 && !ok.out.isEmpty, "\(args): \(ok.err)")
            let r = try Self.logbook(dir, args, stdout: "/dev/full")
            let lines = r.err.split(separator: "\n")
            #expect(r.status == 1, "\(args.joined(separator: " ")) > /dev/full: exit \(r.status)")
            #expect(lines.count == 1 && r.err.contains("No space left on device"), "\(args): \(r.err)")
        }
    }

    @Test func dashboardModeIgnoresTheUmask() async throws {
        let dir = try await Self.journal()
        defer { dir.cleanup() }
        for mask: mode_t in [0o000, 0o077] {
            let r = try Self.logbook(dir, ["dashboard", "refresh", "--quiet"], umask: mask)
            #expect(r.status == 0, "\(r.err)")
            #expect(fileStat(dir.path + "/run/dashboard.json")?.mode == 0o644, "umask \(String(mask, radix: 8))")
        }
    }
}
