// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookTestSupport
import Testing

/// Recorded receiver logs (fixtures/gpslogs) through the NMEA reader, the filter and the
/// engine in motion mode. A unit-level check: gpsd is not involved.
struct RealLogTests {
    /// Replays fixes with the monotonic clock following GPS time (1 s when it goes backwards).
    static func replay(_ fixes: [Fix], configuration: TripEngineConfiguration) -> TripEngineHarness {
        var h = TripEngineHarness(configuration: configuration)
        var previous: GPSTime?
        for fix in fixes {
            let dt = previous.map { fix.time.seconds(since: $0) } ?? 1
            h.clock.advance(by: dt > 0 ? dt : 1)
            previous = fix.time
            h.send(.fix(fix))
        }
        h.command(.shutdown)
        return h
    }

    static var motion: TripEngineConfiguration {
        var config = TripEngineConfiguration()
        config.motionEnabled = true
        return config
    }

    @Test func munichCityDriveIsOneTripOfAboutElevenKilometres() throws {
        let fixes = NMEAReader.fixes(in: try Fixtures.gpsLog("munich-gps.nmea"))
        #expect(fixes.count > 1_800)
        let h = Self.replay(fixes, configuration: Self.motion)
        // Seven traffic-light stops of 34–69 s, all shorter than the 300 s stop rule.
        #expect(h.starts.count == 1)
        #expect(h.starts.first?.gpsTime == fixes.first?.time, "moving from the first fix: back-dated")
        let end = try #require(h.ends.only)
        #expect(end.reason == .shutdown)
        #expect(end.summary.points > 1_800)
        #expect(end.summary.distanceMeters > 10_000 && end.summary.distanceMeters < 12_500)
        #expect(h.engine.filterCounters[.timeWentBackwards] >= 1, "the log's clock steps back once")
        #expect(!end.discarded)
    }

    /// Three hours; one real break of ~7.5 min at 13:13 UTC (a standstill, then 215 s with
    /// no sentences at all), and stops of 57 s and 253 s that must not split.
    @Test func switzerlandDriveSplitsOnlyAtTheRealBreak() throws {
        let fixes = NMEAReader.fixes(in: try Fixtures.gpsLog("20100403_Z205_Switzerland.txt"))
        #expect(fixes.count > 10_000)
        let h = Self.replay(fixes, configuration: Self.motion)
        #expect(h.starts.count == 2)
        #expect(h.ends.map(\.reason) == [.motion, .shutdown])
        let breakAt = try #require(ISO8601.parse("2010-04-03T13:13:03Z"))
        let firstEnd = try #require(h.ends.first?.summary.endedAt)
        #expect(abs(firstEnd.seconds(since: breakAt)) < 15, "\(firstEnd)")
        let total = h.ends.map(\.summary.distanceMeters).reduce(0, +)
        #expect(total > 235_000 && total < 250_000, "\(total)")
        #expect(h.engine.filterCounters[.noFix] > 0)
    }

    @Test func bt451BackwardsTimeIsRejected() throws {
        let fixes = NMEAReader.fixes(in: try Fixtures.gpsLog("bt451.log"))
        var filter = FixFilter()
        for fix in fixes { _ = filter.filter(fix) }
        #expect(filter.counters[.timeWentBackwards] >= 1)
        #expect(filter.counters.resyncs == 0)
    }
}
