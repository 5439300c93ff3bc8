// SPDX-License-Identifier: MIT
import Foundation
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
        for delay in [600, 900, 1300, 1700] {
            if try await killed(dir, ["trips", "list", "--limit", "1"], after: .milliseconds(delay)) { kills += 1 }
            progress.append(try indexedThrough(dir))
        }
        print("index-kill: catch-up killed \(kills) times, indexed through \(progress) of \(end)")
        #expect(kills >= 2, "the catch-up finished before it could be killed")
        #expect(progress.contains { $0 > 0 && String($0) != end }, "no kill landed between two commits")
        let index = try TripIndex.open(path: dir.index, journalDirectory: dir.journal)
        _ = try index.catchUp()
        #expect(try index.dump() == clean)
        try index.close()

        // `reindex` is one transaction: killed, it leaves the old index as it was.
        var reindexKills = 0
        for delay in [500, 1500] {
            if try await killed(dir, ["reindex"], after: .milliseconds(delay)) { reindexKills += 1 }
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
