// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookTestSupport
import Synchronization
import Testing

@testable import LogbookJournal

/// The real file system, except that preallocating (a new segment) fails with ENOSPC while
/// `full` is set: what a full SD card does to the journal. The daemon test does the same on a
/// real tmpfs; here the writer is driven directly, without gpsd.
final class FillableFileSystem: JournalFileSystem, @unchecked Sendable {
    // @unchecked: `real` is only used from the writer thread (or before it starts); `full`
    // is a Mutex.
    private let real = PosixFileSystem()
    let full = Mutex(false)
    let refused = Mutex(0)

    func list(_ directory: String) throws -> [String] { try real.list(directory) }
    func create(_ path: String) throws -> Int32 { try real.create(path) }
    func openForWriting(_ path: String) throws -> Int32 { try real.openForWriting(path) }
    func allocate(_ handle: Int32, size: Int) throws {
        if full.withLock({ $0 }) {
            refused.withLock { $0 += 1 }
            throw JournalIOError(operation: "fallocate", path: "fd \(handle)", code: ENOSPC)
        }
        try real.allocate(handle, size: size)
    }
    func write(_ handle: Int32, _ bytes: [UInt8], at offset: Int) throws { try real.write(handle, bytes, at: offset) }
    func sync(_ handle: Int32) throws { try real.sync(handle) }
    func truncate(_ handle: Int32, size: Int) throws { try real.truncate(handle, size: size) }
    func close(_ handle: Int32) { real.close(handle) }
    func syncDirectory(_ path: String) throws { try real.syncDirectory(path) }
    func read(_ path: String) throws -> [UInt8]? { try real.read(path) }
    func remove(_ path: String) throws { try real.remove(path) }
}

@Suite struct DiskFullTests {
    static func config(_ dir: TempDir, backlog: Int = 16 << 20) -> JournalConfiguration {
        JournalConfiguration(
            directory: dir.journal, stateDirectory: dir.path, commitInterval: .milliseconds(20), segmentSize: 64 << 10,
            maximumBacklogBytes: backlog)
    }

    static func point(_ i: Int) -> TripPoint { testPoint(i) }

    static func ended(_ id: TripID, points: Int) -> JournalRecord {
        .tripEnded(TripEnded(id: id, reason: "shutdown", summary: TripSummary(
            distance: 1, duration: 1, maxSpeed: 1, averageSpeed: 1, pointCount: points)))
    }

    /// Writes a closed trip and returns the bytes of every file, to prove they are untouched.
    static func firstTrip(_ dir: TempDir, _ fs: FillableFileSystem, points: Int = 100) async throws -> [String: Data] {
        let w = try JournalWriter.open(config(dir), logger: quietLogger, fileSystem: fs)
        let id = w.nextTripID()
        try w.append(.tripStarted(TripStarted(id: id, reason: "service", monotonicNanoseconds: 0, bootID: "t")))
        for i in 0..<points { try w.append(.points(id, [point(i)])) }
        try w.append(ended(id, points: points))
        try await w.close()
        return try snapshot(dir)
    }

    static func snapshot(_ dir: TempDir) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.journal) where name.hasSuffix(".seg") {
            out[name] = try Data(contentsOf: URL(fileURLWithPath: dir.journal + "/" + name))
        }
        return out
    }

    @Test func fullAtStartBuffersInMemoryAndWritesEverythingInOrderWhenSpaceReturns() async throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let fs = FillableFileSystem()
        let before = try await Self.firstTrip(dir, fs)
        fs.full.withLock { $0 = true }
        let w = try JournalWriter.open(Self.config(dir), logger: quietLogger, fileSystem: fs)
        #expect(w.recovery.diskFull)
        let durable = w.durableSequence
        let id = w.nextTripID()
        try w.append(.tripStarted(TripStarted(id: id, reason: "service", monotonicNanoseconds: 0, bootID: "t")))
        for i in 0..<2_000 { try w.append(.points(id, [Self.point(1_000 + i)])) }
        try w.append(Self.ended(id, points: 2_000))
        await eventually(every: .milliseconds(5)) { fs.refused.withLock { $0 } >= 3 }
        let waiting = w.statistics
        #expect(waiting.diskFull && waiting.pendingRecords > 0 && waiting.lastError != nil)
        #expect(w.durableSequence == durable, "nothing can be durable without a segment")
        fs.full.withLock { $0 = false }
        try await w.syncAfterFaultCleared()
        #expect(!w.statistics.diskFull && w.statistics.lastError == nil && w.statistics.droppedPoints == 0)
        try await w.close()
        let after = try Self.snapshot(dir)
        for (name, bytes) in before { #expect(after[name] == bytes, "\(name) was modified") }
        let trips = try JournalReader(directory: dir.journal).trips()
        #expect(trips.count == 2 && trips.allSatisfy { $0.state == .closed }, "\(trips)")
        let points = try JournalReader(directory: dir.journal).points(of: id)
        #expect(points.count == 2_000 && points == (0..<2_000).map { Self.point(1_000 + $0) })
        let report = verifyJournal(directory: dir.journal, stateDirectory: dir.path)
        #expect(report.ok, "\(String(describing: report.problem))")
        print("journal-disk-full: full at start: \(fs.refused.withLock { $0 }) refused segment starts, 2,002 records kept in memory, all durable in order once space returned, verify ok")
    }

    @Test func fullAtRotationKeepsTheTripAndVerifies() async throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let fs = FillableFileSystem()
        // The retries' pace is the commit interval: a driven clock moves through it.
        let clock = DrivenCommitClock()
        let w = try JournalWriter.open(Self.config(dir), logger: quietLogger, fileSystem: fs, clock: clock)
        let id = w.nextTripID()
        try w.append(.tripStarted(TripStarted(id: id, reason: "power:ACAD", monotonicNanoseconds: 0, bootID: "t")))
        for i in 0..<3_000 { try w.append(.points(id, [Self.point(i)])) }
        try await w.sync()
        let segments = w.statistics.segmentsCreated
        // The card fills: the current segment takes what it can, the next one cannot be made.
        fs.full.withLock { $0 = true }
        let fullSince = clock.nanoseconds()
        for i in 3_000..<9_000 {
            try w.append(.points(id, [Self.point(i)]))
            if i % 500 == 0 { clock.advance(by: .milliseconds(25)) }
        }
        await eventually(every: .milliseconds(5)) { w.statistics.diskFull }
        #expect(w.statistics.diskFull && w.statistics.segmentsCreated == segments)
        #expect(w.durableSequence < 9_001)
        // Ten more intervals, each waited out until its retry was refused.
        for _ in 0..<10 {
            let refused = fs.refused.withLock { $0 }
            clock.advance(by: .milliseconds(20))
            await eventually(every: .milliseconds(5)) { fs.refused.withLock { $0 } > refused }
        }
        // Retried once per commit interval (20 ms here), never in a busy loop.
        let attempts = fs.refused.withLock { $0 }
        let intervals = Int(Duration.nanoseconds(clock.nanoseconds() - fullSince) / .milliseconds(20))
        #expect(attempts <= intervals + 3, "\(attempts) attempts in \(intervals) intervals")
        fs.full.withLock { $0 = false }
        try w.append(Self.ended(id, points: 9_000))
        try await w.syncAfterFaultCleared()
        try await w.close()
        #expect(w.statistics.segmentsCreated > segments)
        let points = try JournalReader(directory: dir.journal).points(of: id)
        #expect(points.count == 9_000 && points == (0..<9_000).map(Self.point))
        let report = verifyJournal(directory: dir.journal, stateDirectory: dir.path)
        #expect(report.ok, "\(String(describing: report.problem))")
        print("journal-disk-full: full at rotation: \(fs.refused.withLock { $0 }) refused segment starts, 9,000 points in order, verify ok")
    }

    /// What the in-memory buffer costs: one hour of driving at 1 Hz, appended point by point
    /// as the daemon does, while the disk is full and the writer retries.
    @Test func anHourOfBufferedDrivingCostsAFewHundredKilobytes() async throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let fs = FillableFileSystem()
        _ = try await Self.firstTrip(dir, fs, points: 1)
        fs.full.withLock { $0 = true }
        let w = try JournalWriter.open(Self.config(dir), logger: quietLogger, fileSystem: fs)
        let id = w.nextTripID()
        let points = (0..<3_600).map(Self.point)
        let before = heapBytesInUse()
        try w.append(.tripStarted(TripStarted(id: id, reason: "service", monotonicNanoseconds: 0, bootID: "t")))
        for p in points { try w.append(.points(id, [p])) }
        await eventually(every: .milliseconds(5)) { fs.refused.withLock { $0 } >= 3 }
        let held = heapBytesInUse() - before
        let encoded = w.statistics.pendingBytes
        #expect(w.statistics.diskFull && w.statistics.droppedPoints == 0)
        print("journal-disk-full: buffer memory: one hour at 1 Hz (3,600 points) holds \(held / 1024) KiB of heap (\(held / 3_600) bytes/point; \(encoded / 1024) KiB as encoded; the default limit is \(JournalConfiguration.backlogBytes(forPoints: 3_600) / 1024) KiB as encoded)")
        #expect(held > 3_600 * 26 && held < 3_600 * 400, "\(held) bytes")
        fs.full.withLock { $0 = false }
        try await w.syncAfterFaultCleared()
        try await w.close()
    }

    /// The backlog is counted as the commits subtract it: after hours of single-point appends
    /// it is back at 0, so a disk that fills after a week still gets the whole buffer.
    @Test func theBacklogCountReturnsToZeroAfterManyMergedAppends() async throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let w = try JournalWriter.open(Self.config(dir), logger: quietLogger, fileSystem: FillableFileSystem())
        let id = w.nextTripID()
        try w.append(.tripStarted(TripStarted(id: id, reason: "service", monotonicNanoseconds: 0, bootID: "t")))
        for i in 0..<5_000 {
            try w.append(.points(id, [Self.point(i)]))
            if i % 700 == 0 { try await w.sync() }
        }
        try await w.sync()
        #expect(w.statistics.pendingBytes == 0 && w.statistics.pendingRecords == 0)
        try await w.close()
    }

    @Test func pastTheBufferPointsAreDroppedButTheTripStillCloses() async throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let fs = FillableFileSystem()
        _ = try await Self.firstTrip(dir, fs, points: 10)
        fs.full.withLock { $0 = true }
        // About 300 points' worth.
        let w = try JournalWriter.open(Self.config(dir, backlog: 8 << 10), logger: quietLogger, fileSystem: fs)
        let id = w.nextTripID()
        try w.append(.tripStarted(TripStarted(id: id, reason: "service", monotonicNanoseconds: 0, bootID: "t")))
        var refused = 0
        for i in 0..<1_000 {
            do { try w.append(.points(id, [Self.point(i)])) } catch JournalError.backlogFull { refused += 1 }
        }
        try w.append(Self.ended(id, points: 1_000 - refused))
        #expect(refused > 600 && w.statistics.droppedPoints == refused)
        fs.full.withLock { $0 = false }
        try await w.syncAfterFaultCleared()
        try await w.close()
        let trip = try #require(try JournalReader(directory: dir.journal).trips().last)
        #expect(trip.id == id && trip.state == .closed)
        #expect(try JournalReader(directory: dir.journal).points(of: id).count == 1_000 - refused)
        #expect(verifyJournal(directory: dir.journal, stateDirectory: dir.path).ok)
    }

    /// A crash left the trip open; the next start finds the disk full: recovery cannot set the
    /// torn tail aside or start a segment, yet opens, and closes the trip once there is room.
    @Test func uncleanStopThenFullDiskClosesTheTripWhenSpaceReturns() async throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: KillTests.writerPath)
        process.arguments = [dir.path, "0", "3"]
        let out = Pipe()
        process.standardOutput = out
        // Killed once it acknowledged a point (an ACK line: durable), not after a fixed time.
        let printed = Mutex("")
        out.fileHandleForReading.readabilityHandler = { h in
            let chunk = String(decoding: h.availableData, as: UTF8.self)
            printed.withLock { $0 += chunk }
        }
        try process.run()
        await eventually(every: .milliseconds(5)) { printed.withLock { $0.contains("ACK ") } }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        out.fileHandleForReading.readabilityHandler = nil
        let rest = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let text = printed.withLock { $0 } + rest
        let acked = text.split(separator: "\n").filter { $0.hasPrefix("ACK ") }.compactMap { Int($0.split(separator: " ")[2]) }.max() ?? -1
        #expect(acked >= 0, "the crash writer acknowledged nothing: \(text)")
        let fs = FillableFileSystem()
        fs.full.withLock { $0 = true }
        let w = try JournalWriter.open(Self.config(dir), logger: quietLogger, fileSystem: fs)
        #expect(w.recovery.diskFull && w.recovery.wasUnclean && w.recovery.closedTrips.count == 1)
        fs.full.withLock { $0 = false }
        try await w.syncAfterFaultCleared()
        try await w.close()
        let trips = try JournalReader(directory: dir.journal).trips()
        #expect(trips.count == 1 && trips.first?.endReason == "recovered", "\(trips)")
        let points = try JournalReader(directory: dir.journal).points(of: try #require(trips.first).id)
        #expect(points.count >= acked + 1, "acknowledged points lost: \(points.count) < \(acked + 1)")
        let report = verifyJournal(directory: dir.journal, stateDirectory: dir.path)
        #expect(report.ok, "\(String(describing: report.problem))")
    }
}
