// SPDX-License-Identifier: MIT
import Foundation
import GRDB
import LogbookCore
import LogbookTestSupport
import Testing

@testable import LogbookStore

/// A real `logbook` process killed with SIGKILL in the middle of `reindex` and of a catch-up:
/// the next open must yield the same index as a clean rebuild.
@Suite(.serialized) struct KillTests {
    /// A journal big enough that catching up takes a few seconds in a debug build.
    func journal(_ dir: StoreDir) throws {
        let gen = Process()
        gen.executableURL = URL(fileURLWithPath: TestPaths.product("logbook-journal-gen"))
        gen.arguments = [dir.path, "--trips", "800", "--points", "240000", "--seed", "3"]
        gen.standardOutput = FileHandle.nullDevice
        try gen.run()
        gen.waitUntilExit()
        #expect(gen.terminationStatus == 0)
    }

    /// Starts `logbook ARGS` on the journal and SIGKILLs it after `delay`; true when it was
    /// still running (killed mid-way) rather than done.
    func killed(_ dir: StoreDir, _ args: [String], after delay: Duration) async throws -> Bool {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: TestPaths.product("logbook"))
        p.arguments = ["--state-dir", dir.state] + args
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        try await Task.sleep(for: delay)
        let running = p.isRunning
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        return running && p.terminationReason == .uncaughtSignal
    }

    /// Runs `logbook ARGS` to the end and returns how long it took.
    func timed(_ dir: StoreDir, _ args: [String]) throws -> Duration {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: TestPaths.product("logbook"))
        p.arguments = ["--state-dir", dir.state] + args
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        let started = ContinuousClock.now
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        return ContinuousClock.now - started
    }

    /// Starts `logbook ARGS` and SIGKILLs it as soon as the index file shows a commit past
    /// `after` and short of `end` (read with a read-only connection of its own): a kill
    /// between two catch-up commits, however fast this machine is. True when it was killed so.
    func killedBetweenCommits(_ dir: StoreDir, _ args: [String], after: UInt64, end: UInt64) async throws -> Bool {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: TestPaths.product("logbook"))
        p.arguments = ["--state-dir", dir.state] + args
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        var midway = false
        let deadline = ContinuousClock.now + .seconds(120)
        while p.isRunning, ContinuousClock.now < deadline {
            if let seq = peekIndexedThrough(dir), seq > after, seq < end {
                midway = true
                break
            }
            try await Task.sleep(for: .milliseconds(2))
        }
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        return midway && p.terminationReason == .uncaughtSignal
    }

    func peekIndexedThrough(_ dir: StoreDir) -> UInt64? {
        guard FileManager.default.fileExists(atPath: dir.index) else { return nil }
        var configuration = Configuration()
        configuration.readonly = true
        guard let db = try? DatabaseQueue(path: dir.index, configuration: configuration) else { return nil }
        let seq = try? db.read { try Int64.fetchOne($0, sql: "SELECT indexed_through_seq FROM index_state") }
        try? db.close()
        return (seq ?? nil).map { UInt64(bitPattern: $0) }
    }

    func indexedThrough(_ dir: StoreDir) throws -> UInt64 {
        let index = try TripIndex.open(path: dir.index, journalDirectory: dir.journal)
        defer { try? index.close() }
        return try index.status().indexedThrough
    }

    @Test(.timeLimit(.minutes(5)))
    func killNineDuringCatchUpAndReindexLeavesAConsistentIndex() async throws {
        let dir = StoreDir()
        defer { dir.cleanup() }
        try journal(dir)
        let clean = try cleanRebuildDump(dir)
        let end = try #require(clean.first).split(separator: "|")[1]

        // Catch-up from nothing (`trips list` opens the index), killed again and again: each
        // run continues from the last committed transaction.
        var kills = 0, progress: [UInt64] = []
        let last = UInt64(end) ?? 0
        // A run that got to the end before a kill could land (a loaded machine) starts over
        // from an empty index; at most six runs.
        for _ in 0..<6 where kills < 2 {
            let before = progress.last ?? 0
            if try await killedBetweenCommits(dir, ["trips", "list", "--limit", "1"], after: before, end: last) { kills += 1 }
            progress.append(try indexedThrough(dir))
            if progress.last == last, kills < 2 {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: dir.index + suffix) }
                progress.append(0)
            }
        }
        print("index-kill: catch-up killed \(kills) times, indexed through \(progress) of \(end)")
        #expect(kills >= 1, "the catch-up finished before it could be killed between two commits")
        #expect(progress.contains { $0 > 0 && String($0) != end }, "no kill landed between two commits")
        let index = try TripIndex.open(path: dir.index, journalDirectory: dir.journal)
        _ = try index.catchUp()
        #expect(try index.dump() == clean)
        try index.close()

        // `reindex` is one transaction: killed, it leaves the old index as it was.
        var reindexKills = 0
        let wholeReindex = try timed(dir, ["reindex"])
        for fraction in [0.3, 0.7] {
            if try await killed(dir, ["reindex"], after: wholeReindex * fraction) { reindexKills += 1 }
            let reopened = try TripIndex.open(path: dir.index, journalDirectory: dir.journal)
            #expect(reopened.replacedBecause == nil)
            _ = try reopened.catchUp()
            #expect(try reopened.dump() == clean)
            try reopened.close()
        }
        print("index-kill: reindex killed \(reindexKills) times mid-transaction; the next open equals a clean rebuild")
        #expect(reindexKills >= 1)
    }
}
