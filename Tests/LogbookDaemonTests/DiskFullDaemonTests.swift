// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import LogbookTestSupport
import Testing

/// A full disk under the real daemon and a real gpsd replay (issue 13 §2): the state
/// directory is a small tmpfs the test mounts (root only) and fills. The daemon stays up,
/// says `journal: disk full` in live.json, on the socket and in STATUS=, keeps the trip in
/// memory, and writes it all, in order, once space returns; `logbook verify` passes.
@Suite(.serialized) struct DiskFullDaemonTests {
    /// A tmpfs of `size` mounted at `path`; unmounted by `unmount()`.
    struct Tmpfs {
        let path: String
        init?(_ path: String, size: String) throws {
            guard getuid() == 0 else { return nil }
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            guard Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size),mode=0755", "tmpfs", path]) == 0 else { return nil }
            self.path = path
        }
        func unmount() { _ = Self.run("/bin/umount", [path]) }

        var freeBytes: Int {
            var s = statvfs()
            return statvfs(path, &s) == 0 ? Int(s.f_bavail) * Int(s.f_frsize) : 0
        }

        /// Takes all free space but `keep` bytes with a filler file.
        func fill(leaving keep: Int) throws {
            let fd = open(path + "/filler", O_CREAT | O_WRONLY, 0o600)
            defer { close(fd) }
            let size = max(0, freeBytes - keep)
            guard fd >= 0, posix_fallocate(fd, 0, off_t(size)) == 0 else { throw POSIXError(.ENOSPC) }
        }

        func free() throws { try FileManager.default.removeItem(atPath: path + "/filler") }

        static func run(_ tool: String, _ args: [String]) -> Int32 {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: tool)
            p.arguments = args
            p.standardError = FileHandle.nullDevice
            guard (try? p.run()) != nil else { return -1 }
            p.waitUntilExit()
            return p.terminationStatus
        }
    }

    func config(_ dir: TemporaryDirectory, state: String, gpsd: String, buffer: Int = 3600) throws -> String {
        let path = dir.file("logbookd.toml")
        try """
            state_dir = "\(state)"
            runtime_dir = "\(dir.file("run"))"
            [gpsd]
            address = "\(gpsd)"
            [journal]
            commit_interval_s = 1
            disk_full_buffer_s = \(buffer)
            [[source]]
            type = "service"
            """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func live(_ dir: TemporaryDirectory) -> [String: Any]? { readJSONFile(dir.file("run/live.json")) }
    func journal(_ dir: TemporaryDirectory) -> [String: Any]? { live(dir)?["journal"] as? [String: Any] }
    func points(_ dir: TemporaryDirectory) -> Int { (live(dir)?["trip"] as? [String: Any])?["points"] as? Int ?? 0 }

    func segments(_ state: String) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: state + "/journal") where name.hasSuffix(".seg") {
            out[name] = try Data(contentsOf: URL(fileURLWithPath: state + "/journal/" + name))
        }
        return out
    }

    /// A free loopback port for a gpsd started later (the daemon retries until it is there).
    func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
        _ = withUnsafeMutablePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        return Int(UInt16(bigEndian: a.sin_port))
    }

    func verify(_ state: String) async throws -> String {
        let r = try await runLogbook(["verify", "--state-dir", state])
        #expect(r.status == 0, "logbook verify: \(r.out) \(r.err)")
        return r.out.split(separator: "\n").last.map(String.init) ?? ""
    }

    @Test(.timeLimit(.minutes(3)))
    func fullAtStartTheDaemonStaysUpBuffersAndWritesItAllWhenSpaceReturns() async throws {
        let dir = try TemporaryDirectory("dfs")
        defer { dir.remove() }
        // Big enough for a default 4 MiB segment once the filler is gone.
        guard let fs = try Tmpfs(dir.file("state"), size: "16m") else {
            print("disk-full: SKIP at start: needs root to mount a tmpfs")
            return
        }
        defer { fs.unmount() }
        // A first run makes the key and a journal; then the disk fills.
        let cfg = try config(dir, state: fs.path, gpsd: "127.0.0.1:1")
        let first = try DaemonProcess(arguments: ["--config", cfg])
        #expect(await eventually(.seconds(20)) { live(dir) != nil })
        #expect(await first.stop()?.0 == 0)
        let before = try segments(fs.path)
        try fs.fill(leaving: 16 << 10)
        let gpsd = try GPSDReplay(log: TestPaths.gpsLog("munich-gps.nmea"), realtime: 100)
        defer { gpsd.stop() }
        let notify = try NotifySocketListener(path: dir.file("notify"))
        let daemon = try DaemonProcess(
            arguments: ["--config", try config(dir, state: fs.path, gpsd: gpsd.address)],
            environment: ["NOTIFY_SOCKET": notify.path])
        #expect(await notify.waitFor("READY=1"), "not ready on a full disk: \(daemon.log.suffix(800))")
        #expect(await eventually(.seconds(20)) { journal(dir)?["status"] as? String == "disk full" }, "\(String(describing: journal(dir)))")
        #expect(await notify.waitFor("journal: disk full"), "no STATUS= about it: \(notify.messages().suffix(3))")
        let socket = try await runLogbook(["status", "--json", "--runtime-dir", dir.file("run")])
        #expect(socket.out.contains(#""status":"disk full""#), "\(socket.out)")
        let text = try await runLogbook(["status", "--runtime-dir", dir.file("run")])
        #expect(text.out.contains("Journal disk full"), "\(text.out)")
        #expect(await eventually(.seconds(60)) { points(dir) > 1_500 }, "points: \(points(dir))")
        let points1 = points(dir)
        #expect(daemon.process.isRunning && journal(dir)?["status"] as? String == "disk full")
        try fs.free()
        #expect(await eventually(.seconds(20)) { journal(dir)?["status"] as? String == "ok" && journal(dir)?["pending_records"] as? Int == 0 })
        let stopped = await daemon.stop()
        #expect(stopped?.0 == 0, "\(daemon.log.suffix(800))")
        let after = try segments(fs.path)
        for (name, bytes) in before { #expect(after[name] == bytes, "\(name) was modified") }
        let reader = try JournalReader(directory: fs.path + "/journal")
        let trip = try #require(try reader.trips().last)
        let stored = try reader.points(of: trip.id)
        #expect(stored.count == trip.summary.pointCount && stored.count >= points1, "\(stored.count) of \(trip.summary.pointCount)")
        #expect(zip(stored, stored.dropFirst()).allSatisfy { $0.time < $1.time })
        let ok = try await verify(fs.path)
        print("disk-full: at start: daemon up, live.json/socket/STATUS= say \"journal: disk full\", \(stored.count) points buffered and written in order when space returned, sealed segments untouched, verify \(ok)")
    }

    @Test(.timeLimit(.minutes(4)))
    func fullAtRotationTheTripGoesOnAndIsWrittenWhenSpaceReturns() async throws {
        let dir = try TemporaryDirectory("dfr")
        defer { dir.remove() }
        guard let fs = try Tmpfs(dir.file("state"), size: "2m") else {
            print("disk-full: SKIP at rotation: needs root to mount a tmpfs")
            return
        }
        defer { fs.unmount() }
        // gpsd comes later, on this port: first the disk fills behind the open segment.
        // A 4 h buffer: the whole 3 h drive fits (the default hour would drop the rest).
        let port = freePort()
        let daemon = try DaemonProcess(
            arguments: ["--config", try config(dir, state: fs.path, gpsd: "127.0.0.1:\(port)", buffer: 14_400)],
            environment: ["LOGBOOKD_DEBUG_SEGMENT_KIB": "64"])
        #expect(await eventually(.seconds(20)) { (live(dir)?["trip"] as? [String: Any]) != nil })
        try fs.fill(leaving: 32 << 10)
        let gpsd = try GPSDReplay(log: TestPaths.gpsLog("20100403_Z205_Switzerland.txt"), realtime: 0, port: port)
        defer { gpsd.stop() }
        #expect(await eventually(.seconds(60)) { journal(dir)?["status"] as? String == "disk full" }, "\(String(describing: journal(dir)))")
        await gpsd.waitUntilFinished(timeout: .seconds(120))
        #expect(await eventually(.seconds(20)) { points(dir) > 10_000 })
        let buffered = journal(dir)?["pending_bytes"] as? Int ?? 0
        let total = points(dir)
        #expect(daemon.process.isRunning && journal(dir)?["status"] as? String == "disk full")
        #expect(journal(dir)?["dropped_points"] as? Int == 0)
        try fs.free()
        #expect(await eventually(.seconds(30)) { journal(dir)?["status"] as? String == "ok" && journal(dir)?["pending_records"] as? Int == 0 })
        #expect(await daemon.stop()?.0 == 0)
        let reader = try JournalReader(directory: fs.path + "/journal")
        let trip = try #require(try reader.trips().only)
        let stored = try reader.points(of: trip.id)
        #expect(stored.count == trip.summary.pointCount && stored.count == total, "\(stored.count) stored, \(total) recorded")
        #expect(zip(stored, stored.dropFirst()).allSatisfy { $0.time < $1.time })
        #expect(try segments(fs.path).count >= 4)
        let ok = try await verify(fs.path)
        print("disk-full: at rotation: \(total) points recorded, ~\(buffered / 26) of them waited in memory (\(buffered / 1024) KiB as encoded), all written in order, verify \(ok)")
    }
}

extension Array {
    fileprivate var only: Element? { count == 1 ? first : nil }
}
