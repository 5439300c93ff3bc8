// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookTestSupport
import Synchronization
import Testing

@testable import LogbookJournal

/// The real file system, with switchable failures (disk full, EIO on fdatasync).
final class FlakyFileSystem: JournalFileSystem, @unchecked Sendable {
    let real = PosixFileSystem()
    let failSync = Atomic<Bool>(false)
    let failWrite = Atomic<Bool>(false)
    let syncsAttempted = Atomic<Int>(0)
    let writesRefused = Atomic<Int>(0)

    func list(_ d: String) throws -> [String] { try real.list(d) }
    func create(_ p: String) throws -> Int32 { try real.create(p) }
    func openForWriting(_ p: String) throws -> Int32 { try real.openForWriting(p) }
    func allocate(_ h: Int32, size: Int) throws { try real.allocate(h, size: size) }
    func write(_ h: Int32, _ b: [UInt8], at o: Int) throws {
        if failWrite.load(ordering: .relaxed) {
            writesRefused.add(1, ordering: .relaxed)
            throw JournalIOError(operation: "pwrite", path: "test", code: ENOSPC)
        }
        try real.write(h, b, at: o)
    }
    func sync(_ h: Int32) throws {
        syncsAttempted.add(1, ordering: .relaxed)
        if failSync.load(ordering: .relaxed) { throw JournalIOError(operation: "fdatasync", path: "test", code: EIO) }
        try real.sync(h)
    }
    func truncate(_ h: Int32, size: Int) throws { try real.truncate(h, size: size) }
    func close(_ h: Int32) { real.close(h) }
    func syncDirectory(_ p: String) throws { try real.syncDirectory(p) }
    func read(_ p: String) throws -> [UInt8]? { try real.read(p) }
    func remove(_ p: String) throws { try real.remove(p) }
}

@Suite struct GroupCommitTests {
    /// A writer on `dir` with the given commit interval and one trip started.
    static func writerWithTrip(
        _ dir: TempDir, commitInterval: Duration, clock: any CommitClock = SystemCommitClock()
    ) throws -> (JournalWriter, TripID) {
        let config = JournalConfiguration(directory: dir.journal, stateDirectory: dir.path, commitInterval: commitInterval)
        let w = try JournalWriter.open(config, logger: quietLogger, fileSystem: PosixFileSystem(), clock: clock)
        let trip = w.nextTripID()
        try w.append(.tripStarted(TripStarted(id: trip, reason: "manual", monotonicNanoseconds: 0, bootID: "b")))
        return (w, trip)
    }

    /// One fdatasync per interval while points flow at 100 Hz (50 ms commit interval here
    /// instead of 5 s: the ratio, syncs per interval, is what is checked). Time is driven: each
    /// point moves the writer's clock 10 ms, and at each interval's end the test waits for that
    /// interval's commit (the writer thread's turn) instead of sleeping through it.
    @Test func oneSyncPerInterval() async throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let clock = DrivenCommitClock()
        let (w, trip) = try Self.writerWithTrip(dir, commitInterval: .milliseconds(50), clock: clock)
        let before = w.statistics.syncs
        let start = clock.nanoseconds()
        var slow = 0
        for i in 0..<100 {
            let t0 = ContinuousClock.now
            let seq = try w.append(.points(trip, [testPoint(i)]))
            if ContinuousClock.now - t0 > .milliseconds(5) { slow += 1 }
            clock.advance(by: .milliseconds(10))
            if i % 5 == 4 { await eventually(every: .milliseconds(5)) { w.durableSequence >= seq } }
        }
        let elapsed = Duration.nanoseconds(clock.nanoseconds() - start)
        try await w.sync()
        let syncs = w.statistics.syncs - before
        let intervals = Int(elapsed / .milliseconds(50)) + 2
        #expect(syncs <= intervals, "\(syncs) fdatasyncs in \(intervals) intervals")
        #expect(syncs >= 2)
        // Appends only take a mutex; allow for scheduling noise on a busy 2-core machine.
        #expect(slow <= 10, "append must not wait on the disk (\(slow) of 100 took > 5 ms)")
        #expect(try JournalReader(directory: dir.journal, upTo: w.durableSequence).points(of: trip).count == 100)
        try await w.close()
    }

    @Test func tripEndCommitsAtOnce() async throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        // A driven clock that never moves: the 10 s interval cannot be what commits.
        let (w, trip) = try Self.writerWithTrip(dir, commitInterval: .seconds(10), clock: DrivenCommitClock())
        try w.append(.points(trip, [testPoint(1)]))
        let seq = try w.append(.tripEnded(TripEnded(id: trip, reason: "manual", summary: .zero)))
        // Poll synchronously: the CPU-heavy crash suites may keep the cooperative pool busy,
        // which would delay resuming this task, not the commit being measured.
        let start = ContinuousClock.now
        while w.durableSequence < seq && ContinuousClock.now - start < .seconds(5) { usleep(1000) }
        #expect(w.durableSequence >= seq, "a trip end must commit at once, not after the 10 s interval")
        try await w.waitDurable(seq)
        #expect(w.statistics.checkpoints >= 1)
        try await w.close()
        #expect(throws: JournalError.self) { try w.append(.points(trip, [testPoint(2)])) }
    }

    /// A burst (a replay, a backlog) commits by size, not only by time: with a 10 s interval,
    /// 4,000 points appended at once (~104 KiB encoded) are durable long before it, in commits
    /// of at most 64 KiB, so what waits in memory stays bounded.
    @Test func aBurstCommitsBySizeBeforeTheInterval() async throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        // A driven clock that never moves: the 10 s interval cannot be what commits.
        let (w, trip) = try Self.writerWithTrip(dir, commitInterval: .seconds(10), clock: DrivenCommitClock())
        var last: UInt64 = 0
        for i in 0..<4_000 { last = try w.append(.points(trip, [testPoint(i)])) }
        // Polled synchronously, as in tripEndCommitsAtOnce.
        let start = ContinuousClock.now
        while w.durableSequence < last - 1_500 && ContinuousClock.now - start < .seconds(5) { usleep(1000) }
        #expect(w.durableSequence >= last - 1_500, "durable \(w.durableSequence) of \(last) before the 10 s interval")
        #expect(w.statistics.pendingBytes < 64 << 10, "\(w.statistics.pendingBytes) bytes still waiting")
        #expect(w.statistics.commits >= 1)
        try await w.close()
        #expect(try JournalReader(directory: dir.journal).points(of: trip).count == 4_000)
    }

    /// fsyncgate: after an fdatasync error the segment is abandoned (never synced again), the
    /// error is visible, and the same records land durably in a new segment.
    /// Whether a wait for `sequence` ends in ``JournalError`` while the driven clock moves one
    /// interval per check. One move is not enough: the writer may make (and fail) its attempt
    /// before the wait registers, and then only the next attempt can report to it.
    static func commitFails(_ w: JournalWriter, _ sequence: UInt64, _ clock: DrivenCommitClock) async -> Bool {
        final class Flag: Sendable { let raised = Mutex(false) }
        let failed = Flag()
        // Not awaited: it ends once the sequence is durable, after the test clears the fault.
        Task {
            do { try await w.waitDurable(sequence) } catch is JournalError { failed.raised.withLock { $0 = true } } catch {}
        }
        await eventually(every: .milliseconds(5)) {
            clock.advance(by: .milliseconds(20))
            return failed.raised.withLock { $0 }
        }
        return failed.raised.withLock { $0 }
    }

    @Test func fsyncErrorStartsNewSegment() async throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let fs = FlakyFileSystem()
        let config = JournalConfiguration(directory: dir.journal, stateDirectory: dir.path, commitInterval: .milliseconds(20))
        // Retries come once per commit interval: a driven clock moves through them.
        let clock = DrivenCommitClock()
        let w = try JournalWriter.open(config, logger: quietLogger, fileSystem: fs, clock: clock)
        let trip = w.nextTripID()
        try w.append(.tripStarted(TripStarted(id: trip, reason: "manual", monotonicNanoseconds: 0, bootID: "b")))
        try w.append(.points(trip, (0..<5).map(testPoint)))
        try await w.sync()
        let durableBefore = w.durableSequence
        fs.failSync.store(true, ordering: .relaxed)
        let seq = try w.append(.points(trip, (5..<10).map(testPoint)))
        #expect(await Self.commitFails(w, seq, clock), "waitDurable never reported the failed commit")
        #expect(w.statistics.lastError?.contains("fdatasync") == true)
        #expect(w.durableSequence == durableBefore)
        // Several retries (every 20 ms) fail too, each in a segment it then abandons.
        for _ in 0..<5 {
            let attempted = fs.syncsAttempted.load(ordering: .relaxed)
            clock.advance(by: .milliseconds(20))
            await eventually(every: .milliseconds(5)) { fs.syncsAttempted.load(ordering: .relaxed) > attempted }
            #expect(fs.syncsAttempted.load(ordering: .relaxed) > attempted, "no retry after a commit interval")
        }
        #expect(w.durableSequence == durableBefore)
        fs.failSync.store(false, ordering: .relaxed)
        try await w.syncAfterFaultCleared()
        #expect(w.durableSequence >= seq)
        #expect(w.statistics.lastError == nil)
        fs.failWrite.store(true, ordering: .relaxed)
        let seq2 = try w.append(.points(trip, (10..<12).map(testPoint)))
        #expect(await Self.commitFails(w, seq2, clock), "waitDurable never reported the failed commit")
        for _ in 0..<5 {
            let refused = fs.writesRefused.load(ordering: .relaxed)
            clock.advance(by: .milliseconds(20))
            await eventually(every: .milliseconds(5)) { fs.writesRefused.load(ordering: .relaxed) > refused }
            #expect(fs.writesRefused.load(ordering: .relaxed) > refused, "no retry after a commit interval")
        }
        fs.failWrite.store(false, ordering: .relaxed)
        try await w.syncAfterFaultCleared()
        try w.append(.tripEnded(TripEnded(id: trip, reason: "manual", summary: .zero)))
        try await w.close()
        #expect(try JournalReader(directory: dir.journal).points(of: trip) == (0..<12).map(testPoint))
        let report = verifyJournal(directory: dir.journal, stateDirectory: dir.path)
        #expect(report.ok, "\(String(describing: report.problem))")
        #expect(report.notes.count >= 1)
    }
}
