// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import Testing

@testable import LogbookStore

/// The index against journals written by the real `JournalWriter`.
@Suite struct CatchUpTests {
    @Test func indexHoldsWhatTheJournalReaderReads() async throws {
        let dir = StoreDir()
        defer { dir.cleanup() }
        var j = try JournalScript.open(dir)
        try j.entry("vehicle", "golf", .add, [("name", .string("Golf"))])
        let a = try j.trip(points: 700, gapAfter: 300)
        let b = try j.trip(vehicle: "zoe", reason: "motion", points: 2, end: "motion", discarded: true)
        try j.entry("vehicle", "golf", .amend, [("year", .number(2019))])
        let c = try j.trip(reason: "manual", points: 40, end: nil)  // still open
        try await j.close()

        let index = try TripIndex.open(path: dir.index, journalDirectory: dir.journal)
        let report = try index.catchUp()
        let reader = try JournalReader(directory: dir.journal)
        let journalTrips = try reader.trips()
        #expect(report.trips == 3 && report.points == 742 && report.entries == 2)
        let trips = try index.trips(matching: TripQuery())
        #expect(trips.map(\.id) == [c, b, a])  // newest first
        for info in journalTrips {
            let t = try #require(try index.trip(info.id))
            #expect(t.vehicleID == info.vehicleID && t.startReason == info.startReason && t.endReason == info.endReason)
            #expect(t.startedAt == info.startTime)
            #expect(t.pointCount == (try reader.points(of: info.id)).count)
            // Bit for bit the points the journal holds, in chunks of at most 256.
            var chunks: [[TripPoint]] = []
            try index.forEachPointChunk(of: info.id) { chunks.append($0) }
            #expect(chunks.allSatisfy { $0.count <= 256 })
            let mine = chunks.flatMap { $0 }, theirs = try reader.points(of: info.id)
            #expect(mine.count == theirs.count)
            #expect(zip(mine, theirs).allSatisfy { same($0, $1) })
            if info.state != .open {
                #expect(t.distance == info.summary.distance && t.duration == info.summary.duration)
                #expect(t.maxSpeed == info.summary.maxSpeed && t.averageSpeed == info.summary.averageSpeed)
            }
        }
        #expect(try index.trip(b)?.discarded == true)
        #expect(try index.trip(c)?.state == .open)
        #expect(try index.trip(c)?.endedAt == nil)
        let open = try #require(try index.trip(c))
        #expect(open.distance > 0 && open.duration == 39.5)  // from its points while open
        let gaps = try index.gaps(of: a)
        #expect(gaps.count == 1 && gaps[0].bridged && abs(gaps[0].seconds - 41) < 0.01)
        #expect(try index.trips(matching: TripQuery(vehicleID: "zoe")).map(\.id) == [b])
        #expect(try index.trips(matching: TripQuery(limit: 2)).map(\.id) == [c, b])
        #expect(try index.trips(matching: TripQuery(includeDiscarded: false)).map(\.id) == [c, a])
        let since = try #require(try index.trip(b)?.startedAt)
        #expect(try index.trips(matching: TripQuery(since: since)).map(\.id) == [c, b])
        #expect(try index.trips(matching: TripQuery(until: since)).map(\.id) == [a])
        var entries: [IndexedEntry] = []
        try index.forEachEntry(type: "vehicle", subject: "golf") { entries.append($0); return true }
        #expect(entries.map(\.entry.action) == [.add, .amend])
        #expect(entries[1].entry.fields["year"]?.doubleValue == 2019)
        // Nothing new: a second catch-up reads only the last segment and applies nothing.
        let again = try index.catchUp()
        #expect(again.recordsApplied == 0)
    }

    /// NaN positions compare unequal; everything else must be identical.
    func same(_ a: TripPoint, _ b: TripPoint) -> Bool {
        a.time == b.time && a.speed == b.speed && a.track == b.track && a.altitude == b.altitude && a.eph == b.eph
            && (a.latitude == b.latitude || (a.latitude.isNaN && b.latitude.isNaN))
            && (a.longitude == b.longitude || (a.longitude.isNaN && b.longitude.isNaN))
    }

    @Test func catchUpIsIncrementalAndEqualsACleanRebuild() async throws {
        let dir = StoreDir()
        defer { dir.cleanup() }
        var j = try JournalScript.open(dir, segmentSize: 64 << 10)
        for i in 0..<100 { try j.trip(points: 150, gapAfter: i % 7 == 0 ? 50 : nil) }
        try j.trip(points: 120, end: nil)  // open across the catch-ups below
        try await j.close()
        var options = TripIndex.Options()
        options.recordsPerTransaction = 7  // many small transactions: a boundary in every trip
        let index = try TripIndex.open(path: dir.index, journalDirectory: dir.journal, options: options)
        let first = try index.catchUp()
        let segments = try FileManager.default.contentsOfDirectory(atPath: dir.journal).filter { $0.hasSuffix(".seg") }.count
        #expect(segments >= 5)

        // The daemon restarts (recovery closes the open trip) and records a bit more.
        var j2 = try JournalScript.open(dir, segmentSize: 64 << 10)
        j2.time += 86_400 * 1_000_000_000
        try j2.trip(points: 30)
        try await j2.close()
        let second = try index.catchUp()
        print("index-catchup: first \(first.recordsRead) records read, then \(second.recordsRead) for \(second.recordsApplied) new (\(segments) segments)")
        #expect(second.recordsApplied > 0)
        #expect(second.recordsRead < first.recordsRead / 4)
        #expect(try index.dump() == (try cleanRebuildDump(dir)))
        let recovered = try #require(try index.trips(matching: TripQuery()).first { $0.recovered })
        #expect(recovered.pointCount == 120)
    }

    @Test func anIndexOfAnotherJournalIsRebuilt() async throws {
        let dir = StoreDir(), other = StoreDir()
        defer { dir.cleanup(); other.cleanup() }
        var j = try JournalScript.open(dir)
        try j.trip(points: 50)
        try await j.close()
        var k = try JournalScript.open(other)
        k.latitude = 52
        try k.trip(points: 80)
        try k.trip(points: 10)
        try await k.close()
        // Build the index for one journal, then point it at the other.
        _ = try TripIndex.open(path: dir.index, journalDirectory: dir.journal).catchUp()
        let index = try TripIndex.open(path: dir.index, journalDirectory: other.journal)
        let report = try index.catchUp()
        #expect(report.rebuilt)
        #expect(try index.dump() == (try cleanRebuildDump(other)))
        #expect(try index.trips(matching: TripQuery()).count == 2)
    }
}
