// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookTestSupport
import Testing

/// Issue 28, item 7: a FIFO or a symlink where a segment should be. Segments are opened
/// without following symlinks and refused unless regular files: `verify`, `trips list` and
/// `logbookd` fail at once with a clear line (never a hang), and recovery copies nothing
/// into `<segment>.broken`.
@Suite(.serialized) struct HostileSegmentTests {
    /// The name a segment after every real one would have.
    static let lastName = "00000000ffffffff-000000ff.seg"

    static func journal() async throws -> StoreDir {
        let dir = StoreDir()
        var script = try JournalScript.open(dir)
        try script.trip(points: 30)
        try await script.close()
        return dir
    }

    /// Runs a built program (stdout and stderr together); kills it after `timeout` (then `timedOut`).
    static func run(_ program: String, _ args: [String], timeout: Duration = .seconds(20)) async throws
        -> (status: Int32, err: String, timedOut: Bool)
    {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: TestPaths.product(program))
        p.arguments = args
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "LOGBOOKD_CONFIG")
        env.removeValue(forKey: "NOTIFY_SOCKET")
        p.environment = env
        let errFile = try TemporaryDirectory("seg")
        defer { errFile.remove() }
        _ = FileManager.default.createFile(atPath: errFile.file("err"), contents: nil)
        let err = try #require(FileHandle(forWritingAtPath: errFile.file("err")))
        // stdout too: `verify` reports its PROBLEM line there.
        p.standardError = err
        p.standardOutput = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        var deadline = TestDeadline(timeout)
        while p.isRunning, !deadline.passed { await deadline.sleep(for: .milliseconds(20)) }
        let timedOut = p.isRunning
        if timedOut { kill(p.processIdentifier, SIGKILL) }
        p.waitUntilExit()
        try err.close()
        let text = String(decoding: FileManager.default.contents(atPath: errFile.file("err")) ?? Data(), as: UTF8.self)
        return (p.terminationStatus, text, timedOut)
    }

    @Test func aFIFOAsASegmentIsAClearErrorNotAHang() async throws {
        let dir = try await Self.journal()
        defer { dir.cleanup() }
        let fifo = dir.journal + "/" + Self.lastName
        #expect(mkfifo(fifo, 0o644) == 0)
        for args in [["verify"], ["trips", "list"]] {
            let r = try await Self.run("logbook", ["--state-dir", dir.state] + args)
            #expect(!r.timedOut, "logbook \(args.joined(separator: " ")) hung on a FIFO")
            #expect(r.status == 1, "logbook \(args): exit \(r.status): \(r.err)")
            #expect(r.err.contains(Self.lastName) && r.err.contains("a FIFO, not a regular file"), "\(args): \(r.err)")
        }
        // The daemon: a clear error at start, before READY, and no hang.
        let d = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1", "--state-dir", dir.state, "--runtime-dir", dir.path + "/run"])
        let status = await d.waitForExit(timeout: .seconds(20))
        #expect(status != nil, "logbookd hung on a FIFO")
        #expect(status != 0)
        #expect(d.log.contains(Self.lastName) && d.log.contains("a FIFO, not a regular file"), "\(d.log)")
        #expect(Self.fileType(fifo) == S_IFIFO, "the FIFO was replaced")
    }

    @Test func aSymlinkAsTheLastSegmentIsNeverFollowed() async throws {
        let dir = try await Self.journal()
        defer { dir.cleanup() }
        let secret = dir.path + "/passwd"
        try "root:x:0:0:root:/root:/bin/bash\n".write(toFile: secret, atomically: false, encoding: .utf8)
        let link = dir.journal + "/" + Self.lastName
        #expect(symlink(secret, link) == 0)
        let d = try DaemonProcess(arguments: ["--gpsd", "127.0.0.1:1", "--state-dir", dir.state, "--runtime-dir", dir.path + "/run"])
        let status = await d.waitForExit(timeout: .seconds(20))
        if status == nil { _ = await d.stop() }
        #expect(status != nil && status != 0, "logbookd started on a symlinked segment: \(d.log)")
        #expect(d.log.contains("a symbolic link, not a regular file"), "\(d.log)")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.journal)
        #expect(!names.contains { $0.contains(".broken") }, "copied into \(names)")
        #expect(Self.fileType(link) == S_IFLNK)
        #expect(try String(contentsOfFile: secret, encoding: .utf8).hasPrefix("root:x:0:0"))
        let verify = try await Self.run("logbook", ["--state-dir", dir.state, "verify"])
        #expect(verify.status == 1 && verify.err.contains("a symbolic link, not a regular file"), "\(verify.err)")
    }

    static func fileType(_ path: String) -> mode_t {
        var st = stat()
        return lstat(path, &st) == 0 ? st.st_mode & S_IFMT : 0
    }
}
