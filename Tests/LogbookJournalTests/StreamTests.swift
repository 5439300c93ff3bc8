// SPDX-License-Identifier: MIT
import Crypto
import Foundation
import LogbookCore
import Testing

@testable import LogbookJournal

/// The outbox API of issue 11: checkpoints readable by followers, and a stream that resumes
/// exactly after a saved position.
@Suite struct StreamTests {
    /// Opens a writer, retrying briefly: `close()` returns before the writer thread has
    /// released the directory lock, so an immediate reopen can still find it held.
    func open(
        _ dir: TempDir, checkpoints: Duration = .seconds(60), clock: any CommitClock = SystemCommitClock()
    ) async throws -> JournalWriter {
        let config = JournalConfiguration(directory: dir.journal, stateDirectory: dir.path, checkpointInterval: checkpoints)
        for _ in 0..<100 {
            do { return try JournalWriter.open(config, logger: quietLogger, fileSystem: PosixFileSystem(), clock: clock) } catch JournalError.locked {
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        return try JournalWriter.open(config, logger: quietLogger, fileSystem: PosixFileSystem(), clock: clock)
    }

    /// A journal of two writer lives (two segments), several commits, each with a checkpoint
    /// (at least 2 × 4: each life's commits after the first, which may come within 1 ms of
    /// opening, and its trip end).
    func makeJournal(_ dir: TempDir, lives: Int = 2, commits: Int = 4) async throws -> Int {
        var n = 0
        for _ in 0..<lives {
            // The checkpoint interval runs on a driven clock the test moves between commits.
            let clock = DrivenCommitClock()
            let w = try await open(dir, checkpoints: .milliseconds(1), clock: clock)
            let id = w.nextTripID()
            _ = try w.append(.tripStarted(TripStarted(id: id, reason: "manual", monotonicNanoseconds: 1, bootID: "b")))
            for _ in 0..<commits {
                _ = try w.append(.points(id, (n..<(n + 25)).map(testPoint)))
                n += 25
                try await w.sync()
                // A checkpoint is due when 1 ms has passed since the last one was taken; a
                // commit on a fast disk can take less, so move the clock to make every later
                // commit carry one.
                clock.advance(by: .milliseconds(2))
            }
            _ = try w.append(.tripEnded(TripEnded(id: id, reason: "manual", summary: .zero)))
            try await w.close()
        }
        return n
    }

    @Test func checkpointsAreReadableAndVerify() async throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        _ = try await makeJournal(dir)
        let cps = try JournalReader(directory: dir.journal).checkpoints()
        let report = verifyJournal(directory: dir.journal, stateDirectory: dir.path)
        #expect(report.ok)
        #expect(cps.count == report.checkpoints)
        #expect(cps.count >= 8)
        let key = try #require(JournalKey.publicKey(stateDirectory: dir.path))
        #expect(cps.allSatisfy { $0.isSignatureValid && $0.publicKey == Array(key.rawRepresentation) })
        #expect(try JournalReader(directory: dir.journal).publicKey() == Array(key.rawRepresentation))
        // A changed head no longer verifies.
        var forged = cps[0]
        forged.head[0] ^= 1
        #expect(!forged.isSignatureValid)
        #expect(zip(cps, cps.dropFirst()).allSatisfy { $0.sequence <= $1.sequence })
    }

    @Test func theStreamDeliversEverythingOnceFromEverySavedPosition() async throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let points = try await makeJournal(dir)
        var whole = JournalStream(directory: dir.journal)
        var all: [JournalItem] = []
        var positions: [JournalPosition] = [whole.position]
        while true {
            let items = try whole.read(maxPoints: 1)  // one item per read: a position after each
            if items.isEmpty { break }
            all += items
            positions.append(whole.position)
        }
        let delivered = all.reduce(0) { n, i in
            if case .entry(let e) = i, case .points(_, let p) = e.record { return n + p.count }
            return n
        }
        #expect(delivered == points)
        #expect(all.filter { if case .checkpoint = $0 { true } else { false } }.count
            == (try JournalReader(directory: dir.journal).checkpoints().count))
        // Resuming at any saved position gives exactly the remaining items.
        for (i, p) in positions.enumerated() {
            var s = JournalStream(directory: dir.journal, after: p)
            var rest: [JournalItem] = []
            while true {
                let items = try s.read(maxPoints: 1000)
                if items.isEmpty { break }
                rest += items
            }
            #expect(rest == Array(all[i...]), "resuming after item \(i)")
        }
    }

    @Test func aPowerCutThatReusedSequenceNumbersIsReportedAsARewind() async throws {
        let before = TempDir(), after = TempDir()
        defer { before.cleanup(); after.cleanup() }
        // What the follower saw before the cut: 60 points in the active segment.
        let w = try await open(before)
        let id = w.nextTripID()
        _ = try w.append(.tripStarted(TripStarted(id: id, reason: "manual", monotonicNanoseconds: 1, bootID: "b")))
        _ = try w.append(.points(id, (0..<60).map(testPoint)))
        try await w.sync()
        var stream = JournalStream(directory: before.journal)
        while try !stream.read().isEmpty {}
        #expect(stream.position.sequence == 61)
        // What recovery left: the segment ends at seq 31, a new one continues with other points.
        let a = try await open(after)
        _ = try a.append(.tripStarted(TripStarted(id: a.nextTripID(), reason: "manual", monotonicNanoseconds: 1, bootID: "b")))
        _ = try a.append(.points(id, (0..<30).map(testPoint)))
        try await a.close()
        let b = try await open(after)
        _ = try b.append(.points(id, (1000..<1010).map(testPoint)))
        try await b.close()
        try await w.close()
        try FileManager.default.removeItem(atPath: before.journal)
        try FileManager.default.copyItem(atPath: after.journal, toPath: before.journal)
        let items = try stream.read(maxPoints: 10_000)
        #expect(items.first == .rewound(from: 61, to: 31))
        // Recovery closed the open trip (seq 32), then the new points (33…42) replace 32…61.
        let replaced = items.compactMap { i -> UInt64? in
            if case .entry(let e) = i { return e.sequence } else { return nil }
        }
        #expect(replaced == [32, 33])
        #expect(stream.position.sequence == 42)
    }
}

/// The frame's CRC is CRC-32C over type ‖ data (docs/journal.md), independent of how the
/// bytes are reached: a dangling pointer once made -O builds disagree with debug builds.
@Test func framingCRCIsTheCRCOfTypeAndPayload() {
    let payload: [UInt8] = (0..<300).map { UInt8($0 % 251) }
    var out: [UInt8] = []
    _ = Framing.frame(payload, at: 0, into: &out)
    let stored = UInt32(out[0]) | UInt32(out[1]) << 8 | UInt32(out[2]) << 16 | UInt32(out[3]) << 24
    #expect(stored == CRC32C.mask(CRC32C.checksum([out[6]] + payload)))
    #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
}
