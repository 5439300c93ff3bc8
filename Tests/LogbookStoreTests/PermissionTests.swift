// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookTestSupport
import Testing

@testable import LogbookStore

/// The index is shared by root, the daemon's user and the group's members: modes and owners.
@Suite struct PermissionTests {
    @Test func aNewIndexGetsTheSharedModes() async throws {
        let dir = StoreDir()
        defer { dir.cleanup() }
        var j = try JournalScript.open(dir)
        try j.trip(points: 20)
        try await j.close()
        let old = umask(0o077)  // a strict umask must not narrow the shared modes
        defer { umask(old) }
        let index = try TripIndex.open(path: dir.index, journalDirectory: dir.journal)
        _ = try index.catchUp()
        #expect(fileStat(dir.cache)?.mode == 0o2770)
        for suffix in ["", "-wal", "-shm"] {
            #expect(fileStat(dir.index + suffix)?.mode == 0o660, "index.sqlite\(suffix)")
        }
        try index.close()
    }

    /// Root opening it first hands the file to the directory's owner, so the daemon's user
    /// and the group can still write it; then that user really does.
    @Test func rootCreatingItFirstDoesNotLockOthersOut() async throws {
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser") else { return }
        let dir = StoreDir()
        defer { dir.cleanup() }
        var j = try JournalScript.open(dir)
        try j.trip(points: 20)
        try await j.close()
        // The journal as the daemon leaves it: readable by its group; here by everyone, since
        // the test user `nobody` stands for a member.
        _ = try run("/bin/chmod", ["-R", "a+rX", dir.path])
        try FileManager.default.createDirectory(atPath: dir.cache, withIntermediateDirectories: true)
        chown(dir.cache, 65534, 65534)
        chmod(dir.cache, 0o2770)
        let index = try TripIndex.open(path: dir.index, journalDirectory: dir.journal)
        _ = try index.catchUp()
        for suffix in ["", "-wal", "-shm"] {
            let st = try #require(fileStat(dir.index + suffix))
            #expect(st.uid == 65534 && st.gid == 65534 && st.mode == 0o660, "index.sqlite\(suffix): \(st)")
        }
        try index.close()
        // Now `nobody` (the directory's owner) appends a trip's worth and lists.
        var more = try JournalScript.open(dir)
        more.time += 1_000_000_000_000
        try more.trip(points: 10)
        try await more.close()
        _ = try run("/bin/chmod", ["-R", "a+rX", dir.state])
        let (status, output) = try run(
            "/usr/sbin/runuser", ["-u", "nobody", "--", TestPaths.product("logbook"), "--state-dir", dir.state, "trips", "list", "--json"])
        #expect(status == 0, "\(output)")
        #expect(output.contains("\"points\":10"))
    }

    func run(_ exe: String, _ args: [String]) throws -> (Int32, String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = args
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
