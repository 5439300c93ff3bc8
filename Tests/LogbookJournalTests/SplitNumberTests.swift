// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookRecords
import Testing

@testable import LogbookJournal

/// A split's second part takes a trip number: another writer opening the journal later (the
/// daemon after the CLI split a trip under its own lock) never hands it out again.
@Suite struct SplitNumberTests {
    @Test func aNumberASplitTookIsNotHandedOutAgainAfterReopening() async throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let config = JournalConfiguration(directory: dir.journal, stateDirectory: dir.path, commitInterval: .seconds(10))
        var w = try JournalWriter.open(config, logger: quietLogger)
        let id = w.nextTripID()
        try w.append(.tripStarted(TripStarted(id: id, reason: "manual", monotonicNanoseconds: 1, bootID: "b")))
        try w.append(.points(id, [testPoint(0), testPoint(1)]))
        try w.append(.tripEnded(TripEnded(id: id, reason: "manual", summary: .zero)))
        let split = TripSplitRecord(at: testPoint(1).time).entry(subject: id.description, origin: "cli").numbered(by: w)
        #expect((try? TripSplitRecord(json: split.fields))?.newTrip == TripID(2))
        try w.append(.entry(UserEntry(split, recordedAt: testPoint(1).time)))
        try await w.close()

        w = try JournalWriter.open(config, logger: quietLogger)
        #expect(w.nextTripID() == TripID(3))
        try await w.close()
        // A split entry appended as built elsewhere (the CLI's) moves this writer's numbers on too.
        w = try JournalWriter.open(config, logger: quietLogger)
        let elsewhere = TripSplitRecord(at: testPoint(1).time, newTrip: TripID(7)).entry(subject: id.description, origin: "cli")
        try w.append(.entry(UserEntry(elsewhere, recordedAt: testPoint(1).time)))
        #expect(w.nextTripID() == TripID(8))
        try await w.close()
    }
}
