// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import Testing

@testable import LogbookJournal

/// `JournalTail` resuming in the middle of a long journal: it starts at the segment holding
/// the sequence, checks the chain head there, and still checks segment links after it.
@Suite struct TailResumeTests {
    /// A journal of many small 64 KiB segments; returns every entry as a full read sees it.
    func writeJournal(_ dir: TempDir, trips: Int = 120) async throws -> [JournalEntry] {
        let config = JournalConfiguration(directory: dir.journal, stateDirectory: dir.path, segmentSize: 64 << 10)
        let w = try JournalWriter.open(config, logger: quietLogger)
        var n = 0
        for _ in 0..<trips {
            let id = w.nextTripID()
            try w.append(.tripStarted(TripStarted(id: id, vehicleID: "golf", reason: "power:ACAD", monotonicNanoseconds: 0, bootID: "b")))
            for _ in 0..<3 {
                try w.append(.points(id, (n..<(n + 50)).map(testPoint)))
                n += 50
                // A record between batches keeps them apart (the writer merges consecutive ones).
                try w.append(.signal(SignalEvent(source: "gps:no-fix", on: true, monotonicNanoseconds: 1)))
            }
            try w.append(.tripEnded(TripEnded(id: id, reason: "power:ACAD", summary: .zero)))
        }
        try await w.close()
        return try JournalReader(directory: dir.journal).entries()
    }

    func segments(_ dir: TempDir) throws -> [SegmentName] {
        SegmentName.segments(in: try FileManager.default.contentsOfDirectory(atPath: dir.journal))
    }

    @Test func resumingReadsOnlyFromTheSegmentHoldingTheSequence() async throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let all = try await writeJournal(dir)
        let names = try segments(dir)
        try #require(names.count >= 6, "want a long journal: \(names.count) segments")
        var full = JournalTail(directory: dir.journal)
        #expect(try full.poll() == all)
        #expect(full.recordsRead == all.count)

        // Resume after a record in the second-to-last segment.
        let holder = names[names.count - 2]
        let resumeIndex = try #require(all.firstIndex { $0.sequence > holder.firstSequence + 10 })
        let resumeAfter = all[resumeIndex - 1]
        let end = resumeAfter.sequence + (resumeAfter.record.pointCount.map { UInt64($0) - 1 } ?? 0)
        var tail = JournalTail(directory: dir.journal, after: end)
        let rest = try tail.poll()
        #expect(rest == Array(all[resumeIndex...]))
        let inLastTwo = all.filter { $0.sequence >= holder.firstSequence }.count
        print("journal-tail: resume after seq \(end): \(tail.recordsRead) records read of \(all.count) (segments \(names.count))")
        #expect(tail.recordsRead <= inLastTwo)
        #expect(tail.recordsRead < all.count / 2)

        // With the chain head it had there, a resumed tail accepts the journal…
        let position = try #require(try JournalTail.position(at: end, in: dir.journal))
        var checked = JournalTail(directory: dir.journal, resumingAfter: position)
        #expect(try checked.poll() == Array(all[resumeIndex...]))
        #expect(checked.position?.sequence == all.last.map { $0.sequence + ($0.record.pointCount.map { UInt64($0) - 1 } ?? 0) })
        // …and refuses it when the record there is another one (a power cut reused the number).
        var forged = position
        forged.chainHead[0] ^= 1
        var refused = JournalTail(directory: dir.journal, resumingAfter: forged)
        #expect(throws: JournalTail.PositionMismatch.self) { try refused.poll() }
        // A resume point beyond the end, or inside a points record, is refused too.
        var beyond = JournalTail(directory: dir.journal, resumingAfter: TailPosition(sequence: end + 1_000_000, chainHead: position.chainHead))
        #expect(throws: JournalTail.PositionMismatch.self) { try beyond.poll() }
        let points = try #require(all.first { ($0.record.pointCount ?? 0) > 1 })
        #expect(try JournalTail.position(at: points.sequence, in: dir.journal) == nil)
    }

    @Test func pollsInStepsNeverReparseAFinishedSegment() async throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let all = try await writeJournal(dir)
        var tail = JournalTail(directory: dir.journal)
        var got: [JournalEntry] = []
        var polls = 0
        while true {
            let batch = try tail.poll(maxEntries: 10)
            if batch.isEmpty { break }
            got += batch
            polls += 1
        }
        #expect(got == all)
        // Each poll ends at a segment's end, and the next starts after it: only the last
        // segment (it may still grow) is read again, by the final, empty poll.
        let segmentCount = try segments(dir).count
        let last = try #require(try segments(dir).last)
        #expect(tail.recordsRead == all.count + all.filter { $0.sequence >= last.firstSequence }.count)
        #expect(polls > 1 && polls <= segmentCount)
    }

    @Test func linksAreStillCheckedAfterTheResumePoint() async throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let all = try await writeJournal(dir)
        let names = try segments(dir)
        // Remove a segment after the resume point: the tail must stop at the hole.
        let start = names[1], removed = names[3]
        try FileManager.default.removeItem(atPath: dir.journal + "/" + removed.fileName)
        // Resume after the first record of the second segment: after where it ends, as a
        // segment may begin with a points record, and a resume point inside one is refused.
        let first = try #require(all.first { $0.sequence >= start.firstSequence })
        var tail = JournalTail(directory: dir.journal, after: first.sequence + UInt64(first.record.pointCount ?? 1) - 1)
        let got = try tail.poll()
        #expect(!got.isEmpty)
        #expect(got.allSatisfy { $0.sequence < removed.firstSequence })
        #expect(got.last.map { $0.sequence < names[3].firstSequence } == true)
        #expect(all.contains { $0.sequence > names[4].firstSequence })
    }

    /// A parse that keeps only the records from a tail's position on verifies and ends exactly
    /// as a full parse does, and keeps exactly that full parse's suffix.
    @Test func aParseKeepingOnlyTheRecordsAfterAPositionEndsAsAFullParse() async throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        _ = try await writeJournal(dir, trips: 20)
        let name = try #require(try segments(dir).first)
        let bytes = try #require(FileManager.default.contents(atPath: dir.journal + "/" + name.fileName))
        let full = SegmentContents.parse(Array(bytes), name: name, tracksOpenTrips: false)
        let users = full.records.filter { if case .user = $0.record { true } else { false } }
        try #require(users.count > 20)
        for cut in [users[0], users[users.count / 2], users[users.count - 1]] {
            guard case .user(let record) = cut.record else { continue }
            let retainFrom = cut.sequence + record.sequenceCount - 1
            let kept = SegmentContents.parse(Array(bytes), name: name, tracksOpenTrips: false, retainFrom: retainFrom)
            #expect(kept.head == full.head && kept.lastSequence == full.lastSequence && kept.validEnd == full.validEnd)
            #expect(kept.stop == full.stop && kept.sealed == full.sealed && kept.userRecords == full.userRecords)
            let first = try #require(kept.records.firstIndex { if case .user = $0.record { true } else { false } })
            #expect(kept.records[first].sequence == cut.sequence, "the record ending at the position is kept")
            let suffix = full.records.filter { r in
                guard case .user(let u) = r.record else { return true }
                return r.sequence + u.sequenceCount - 1 >= retainFrom
            }
            #expect(kept.records.map(\.start) == suffix.map(\.start))
            #expect(kept.records.map(\.headBefore) == suffix.map(\.headBefore))
        }
    }
}

extension JournalRecord {
    /// Points in a points record.
    var pointCount: Int? {
        if case .points(_, let p) = self { return p.count }
        return nil
    }
}
