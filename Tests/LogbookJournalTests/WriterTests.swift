// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import Testing

@testable import LogbookJournal

@Suite struct WriterTests {
    @Test func appendSyncReadVerify() async throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let config = JournalConfiguration(directory: dir.journal, stateDirectory: dir.path, commitInterval: .seconds(10))
        let w = try JournalWriter.open(config, logger: quietLogger)
        #expect(w.recovery.lastSequence == 0)
        let id = w.nextTripID()
        #expect(id == TripID(1))
        try w.append(.tripStarted(TripStarted(id: id, reason: "manual", monotonicNanoseconds: 1, bootID: "b")))
        var last: UInt64 = 0
        for i in 0..<20 { last = try w.append(.points(id, [testPoint(i)])) }
        #expect(w.durableSequence < last)
        try await w.sync()
        #expect(w.durableSequence == last)
        let reader = try JournalReader(directory: dir.journal, upTo: w.durableSequence)
        #expect(try reader.points(of: id) == (0..<20).map(testPoint))
        let trips = try reader.trips()
        #expect(trips.count == 1)
        #expect(trips.first?.state == .open)
        try w.append(.tripEnded(TripEnded(id: id, reason: "manual", summary: .zero)))
        try await w.close()
        try await w.close()
        let stats = w.statistics
        #expect(stats.syncs >= 3)
        let trips2 = try JournalReader(directory: dir.journal).trips()
        #expect(trips2.first?.state == .closed)
        let report = verifyJournal(directory: dir.journal, publicKey: JournalKey.publicKey(stateDirectory: dir.path))
        #expect(report.ok, "\(String(describing: report.problem))")
        #expect(report.points == 20)
        #expect(report.checkpoints >= 1)
        #expect(report.keyTrusted)
    }

    @Test func reopenRecoversOpenTripAndLocks() async throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let config = JournalConfiguration(directory: dir.journal, stateDirectory: dir.path)
        let w = try JournalWriter.open(config, logger: quietLogger)
        #expect(throws: JournalError.self) { try JournalWriter.open(config, logger: quietLogger) }
        do {
            _ = try JournalWriter.open(config, logger: quietLogger)
        } catch {
            #expect("\(error)".contains("locked by another writer (pid \(getpid()))"))
        }
        let id = w.nextTripID()
        try w.append(.tripStarted(TripStarted(id: id, reason: "manual", monotonicNanoseconds: 1, bootID: "b")))
        try w.append(.points(id, (0..<10).map(testPoint)))
        try await w.sync()
        try await w.close()  // closes without ending the trip
        let w2 = try JournalWriter.open(config, logger: quietLogger)
        #expect(w2.recovery.closedTrips == [id])
        #expect(w2.nextTripID() == TripID(2))
        try await w2.close()
        let trips = try JournalReader(directory: dir.journal).trips()
        #expect(trips.count == 1)
        #expect(trips.first?.endReason == "recovered")
        #expect(trips.first?.summary.pointCount == 10)
        #expect((trips.first?.summary.distance ?? 0) > 100)
        let report = verifyJournal(directory: dir.journal, publicKey: JournalKey.publicKey(stateDirectory: dir.path))
        #expect(report.ok, "\(String(describing: report.problem))")
    }
}
