// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookJournal
import LogbookTestSupport
@testable import LogbookUplink
import Testing

/// The head probe behind `logbook uplink status`'s lag: caught up with a sink's stream it must
/// stand exactly where a probe that parsed the whole journal stands.
@Suite struct JournalHeadProbeTests {
    @Test func aProbeCaughtUpWithAStreamStandsWhereAWholeReadStands() async throws {
        let dir = try TemporaryDirectory("probe")
        let journal = try await JournalFixture.write(stateDirectory: dir.file("state"), limit: 600)
        var whole = JournalHeadProbe(directory: journal.journalDirectory, after: .start)
        try whole.advance(maxReads: 10_000)
        #expect(whole.sequence > 600 && whole.pointTime == journal.points.last?.1.time)

        // A stream that read part of the journal: the probe goes on from there and reads the rest.
        var stream = JournalStream(directory: journal.journalDirectory)
        let first = try stream.read(maxPoints: 250)
        #expect(!first.isEmpty && stream.position.sequence < whole.sequence)
        var probe = JournalHeadProbe(directory: journal.journalDirectory, after: .start)
        probe.catchUp(with: stream, pointTime: SinkRunner.lastPointTime(first))
        #expect(probe.sequence == stream.position.sequence)
        try probe.advance(maxReads: 10_000)
        #expect(probe.sequence == whole.sequence && probe.pointTime == whole.pointTime)

        // A stream at the end: caught up, the probe has nothing left to read.
        var lastTime: GPSTime?
        while true {
            let items = try stream.read(maxPoints: 250)
            if items.isEmpty { break }
            lastTime = SinkRunner.lastPointTime(items) ?? lastTime
        }
        var caughtUp = JournalHeadProbe(directory: journal.journalDirectory, after: .start)
        caughtUp.catchUp(with: stream, pointTime: lastTime)
        #expect(caughtUp.sequence == whole.sequence && caughtUp.pointTime == whole.pointTime)
        try caughtUp.advance(maxReads: 1)
        #expect(caughtUp.sequence == whole.sequence && caughtUp.firstPointTime == nil)
    }
}
