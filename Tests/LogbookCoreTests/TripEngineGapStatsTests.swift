// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookTestSupport
import Testing

/// Gaps, running figures, snapshots and point decimation.
struct TripEngineGapStatsTests {
    @Test func tenMinutesWithoutFixIsBridged() throws {
        var h = TripEngineHarness()
        var track = TrackBuilder()
        h.signal(.on(.power, "ignition"))
        h.feed(track.drive(seconds: 60, speed: 20))
        let before = track.time
        // A tunnel: 10 minutes, 6 km, no fix.
        track.tick(599)
        track.move(north: 6_000)
        h.wait(599)
        h.feed(track.drive(seconds: 60, speed: 20))
        let gap = try #require(h.gaps.only)
        #expect(gap.from == before)
        #expect(gap.to == before.advancedBy(600))
        #expect(abs(gap.seconds - 600) < 1e-9)
        #expect(gap.bridged)
        #expect(h.ends.isEmpty)
        let snap = try #require(h.engine.snapshot(at: h.clock.now))
        // 59 steps + 6 020 m across the tunnel + 60 steps, all at 20 m/s.
        let expected = 119 * 20 + 6_020.0
        #expect(abs(snap.distanceMeters - expected) / expected < 0.005, "\(snap.distanceMeters)")
        #expect(snap.distanceMeters > 8_000, "the distance across the tunnel counts")
    }

    @Test func shortDropoutsAreNotReported() {
        var h = TripEngineHarness()
        var track = TrackBuilder()
        h.signal(.on(.power, "ignition"))
        h.feed(track.drive(seconds: 10, speed: 20))
        track.tick(5)
        h.wait(5)
        h.feed(track.drive(seconds: 10, speed: 20))
        #expect(h.gaps.isEmpty)
    }

    @Test func gapsLongerThanTheBridgeAreReportedButNotCounted() throws {
        var h = TripEngineHarness()
        var track = TrackBuilder()
        h.signal(.on(.power, "ignition"))
        h.feed(track.drive(seconds: 60, speed: 20))
        track.tick(1_800)
        track.move(north: 30_000)
        h.wait(1_800)
        h.feed(track.drive(seconds: 61, speed: 20))
        let gap = try #require(h.gaps.only)
        #expect(!gap.bridged)
        let snap = try #require(h.engine.snapshot(at: h.clock.now))
        #expect(abs(snap.distanceMeters - 119 * 20) < 2, "30 km across a 30 min hole is not counted")
    }

    @Test func sixtyOneMinutesWithoutDataEndsWithGap() throws {
        var h = TripEngineHarness()
        var track = TrackBuilder()
        h.signal(.on(.power, "ignition"))
        h.feed(track.drive(seconds: 60, speed: 20))
        let lastFix = track.time
        h.wait(3_599)
        #expect(h.ends.isEmpty)
        h.wait(61 * 60 - 3_599)
        let end = try #require(h.ends.only)
        #expect(end.reason == .gap)
        #expect(end.reason.rawValue == "gap")
        #expect(abs(end.summary.durationSeconds - 60) < 1e-9, "ends at the last data")
        #expect(end.summary.endedAt == lastFix)
        // Power never went off: the next fix starts a new trip with the power reason.
        h.feed(track.drive(seconds: 5, speed: 20))
        #expect(h.starts.map(\.reason) == [.power("ignition"), .power("ignition")])
    }

    @Test func statsMatchAnIndependentSum() throws {
        var h = TripEngineHarness()
        var track = TrackBuilder()
        h.signal(.on(.power, "ignition"))
        let startedAt = h.clock.now
        var fixes = track.drive(seconds: 30, speed: 8)
        fixes += track.drive(seconds: 40, speed: 25, bearingNorth: 1, bearingEast: 1)
        fixes += track.drive(seconds: 20, speed: 14, bearingNorth: 0, bearingEast: -1)
        fixes += track.park(seconds: 10)
        h.feed(fixes)
        let snap = try #require(h.engine.snapshot(at: h.clock.now))
        var sum = 0.0
        for (a, b) in zip(fixes, fixes.dropFirst()) {
            sum += haversine(a.latitude, a.longitude, b.latitude, b.longitude, radius: 6_371_008.8)
        }
        #expect(abs(snap.distanceMeters - sum) / sum < 0.005, "\(snap.distanceMeters) vs \(sum)")
        #expect(abs(snap.distanceMeters - (29 * 8 + 40 * 25 + 20 * 14)) < 5)
        #expect(snap.active)
        #expect(snap.points == 100)
        #expect(snap.points == h.points.count)
        #expect(snap.maxSpeedMetersPerSecond == 25)
        #expect(snap.speedMetersPerSecond == 0)
        #expect(snap.durationSeconds == h.clock.now.seconds(since: startedAt))
        #expect(abs(snap.averageSpeedMetersPerSecond - snap.distanceMeters / snap.durationSeconds) < 1e-9)
        #expect(snap.startedAt == fixes[0].time, "back-filled from the first fix")
        #expect(h.starts[0].gpsTime == nil, "no fix when the power came on")
        #expect(snap.vehicle == nil)
        #expect(snap.startReason == .power("ignition"))
    }

    @Test func jitterAddsNoDistance() throws {
        var h = TripEngineHarness()
        var track = TrackBuilder()
        h.signal(.on(.power, "ignition"))
        var fixes: [Fix] = []
        for i in 0..<120 {  // parked, wandering ±4 m
            track.tick()
            track.move(north: i.isMultiple(of: 2) ? 4 : -4)
            fixes.append(track.fix(speed: 0.1))
        }
        h.feed(fixes)
        let snap = try #require(h.engine.snapshot(at: h.clock.now))
        #expect(snap.distanceMeters == 0)
        #expect(snap.points == 120, "jitter fixes are still recorded")
        #expect(h.engine.filterCounters.jitter == 119)
    }

    @Test func filterCountersFeedTheLiveState() {
        var h = TripEngineHarness()
        let track = TrackBuilder()
        h.send(.fix(track.fix()))
        h.send(.fix(track.fix()))  // duplicate
        h.send(.fix(track.fix(mode: .noFix)))
        #expect(h.engine.filterCounters.accepted == 1)
        #expect(h.engine.filterCounters.rejected == 2)
        #expect(h.engine.filterCounters[.duplicate] == 1)
    }

    @Test func decimationKeepsAtMostOnePointPerInterval() {
        var h = TripEngineHarness()
        var track = TrackBuilder()
        h.signal(.on(.power, "ignition"))
        for _ in 0..<100 {  // 10 Hz receiver
            track.tick(0.1)
            track.move(north: 2)
            h.clock.advance(by: 0.1)
            h.send(.fix(track.fix(speed: 20)))
        }
        #expect(h.points.count == 10)
        let snap = h.engine.snapshot(at: h.clock.now)
        #expect(abs((snap?.distanceMeters ?? 0) - 99 * 2) < 1, "distance still uses every fix")
    }

    @Test func minPointDistanceThinsSlowTraffic() {
        var config = TripEngineConfiguration()
        config.minPointDistance = 25
        var h = TripEngineHarness(configuration: config)
        var track = TrackBuilder()
        h.signal(.on(.power, "ignition"))
        h.feed(track.drive(seconds: 100, speed: 5))
        #expect(h.points.count == 20)  // one every 5 s = 25 m
    }

    @Test func nextDeadlineTellsWhenToTick() throws {
        var h = TripEngineHarness()
        #expect(h.engine.nextDeadline == nil)
        h.signal(.on(.power, "ignition"))
        h.signal(.off(.power, "ignition"))
        let deadline = try #require(h.engine.nextDeadline)
        #expect(deadline == h.clock.now.advanced(bySeconds: 30))
        h.clock.advance(by: 30)
        h.send(.tick)
        #expect(h.ends.count == 1)
    }

    @Test func lastTripSummaryIsKept() throws {
        var h = TripEngineHarness()
        var track = TrackBuilder()
        h.signal(.on(.power, "ignition", vehicle: "golf"))
        h.feed(track.drive(seconds: 90, speed: 10))
        h.signal(.off(.power, "ignition", vehicle: "golf"))
        h.wait(30)
        let last = try #require(h.engine.lastTrip)
        #expect(!last.active)
        #expect(last.endReason == .power("ignition"))
        #expect(last.endedAt == track.time)
        #expect(last.points == 90)
        #expect(h.engine.lastTripEndedAt == h.clock.now)
    }
}
