// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookTestSupport
import Testing

/// Fixes with eph over the limit are kept only when they agree with the motion.
struct PoorFixGateTests {
    /// Good fixes driving north at 10 m/s, then one more second at eph 120 m, `sideways`
    /// metres east of where it should be.
    func filterAfterDriving(sideways: Double, gap: Double = 1, speed: Double? = 10, track: Double? = 0)
        -> (FixFilter, FixFilterResult)
    {
        var filter = FixFilter()
        var t = TrackBuilder(eph: 8)
        for f in t.drive(seconds: 5, speed: 10) { _ = filter.filter(f) }
        t.tick(gap)
        t.move(north: 10 * gap, east: sideways)
        t.eph = 120
        let result = filter.filter(t.fix(speed: speed, track: track))
        return (filter, result)
    }

    @Test func poorFixOnThePredictedPathIsKeptAsMovement() {
        let (filter, result) = filterAfterDriving(sideways: 4)
        #expect(result.moved)
        #expect(abs(filter.lastStep - (100 + 16).squareRoot()) < 0.1)
        #expect(filter.counters[.poorAccuracy] == 0)
    }

    @Test func poorFixOffThePathIsRefused() {
        // Gate at 10 m/s for 1 s: 10 m + 0.5 × 10 m = 15 m.
        let (filter, result) = filterAfterDriving(sideways: 20)
        #expect(result == .rejected(.poorAccuracy))
        #expect(filter.counters[.poorAccuracy] == 1)
    }

    @Test func theGateGrowsWithTheTimeSinceTheLastFixUpToALimit() {
        // 3 s at 10 m/s: 10 + 15 = 25 m allowed.
        #expect(filterAfterDriving(sideways: 20, gap: 3).1.moved)
        // 6 s: too long to dead-reckon, refused however well it fits.
        #expect(filterAfterDriving(sideways: 0, gap: 6).1 == .rejected(.poorAccuracy))
    }

    @Test func poorFixWithoutAVelocityUsesThePreviousOne() {
        #expect(filterAfterDriving(sideways: 2, speed: nil, track: nil).1.moved)
    }

    @Test func aPoorFixIsNeverTheFirstReference() {
        var filter = FixFilter()
        var t = TrackBuilder(eph: 200)
        #expect(filter.filter(t.fix(speed: 10, track: 0)) == .rejected(.poorAccuracy))
        t.tick()
        t.eph = 20
        #expect(filter.filter(t.fix(speed: 10, track: 0)).moved)
    }

    @Test func gateZeroIsTheOldHardCut() {
        var config = FixFilterConfiguration()
        config.poorFixGate = 0
        var filter = FixFilter(configuration: config)
        var t = TrackBuilder(eph: 8)
        for f in t.drive(seconds: 3, speed: 10) { _ = filter.filter(f) }
        t.tick()
        t.move(north: 10)
        t.eph = 51
        #expect(filter.filter(t.fix(speed: 10, track: 0)) == .rejected(.poorAccuracy))
    }

    /// Ten minutes parked under bad sky: eph 150–500 m, positions wandering ±25 m, speed 0.
    @Test func parkedWithPoorFixesAddsNoDistance() {
        var filter = FixFilter()
        var t = TrackBuilder(eph: 10)
        _ = filter.filter(t.fix(speed: 0))
        var rng = SplitMix64(seed: 13)
        var distance = 0.0
        let origin = (t.latitude, t.longitude)
        for _ in 0..<600 {
            t.tick()
            (t.latitude, t.longitude) = origin
            t.move(north: rng.uniform(-25, 25), east: rng.uniform(-25, 25))
            t.eph = rng.uniform(150, 500)
            if filter.filter(t.fix(speed: rng.uniform(0, 0.4), track: rng.uniform(0, 360))).moved {
                distance += filter.lastStep
            }
        }
        #expect(distance == 0)
        #expect(filter.counters.jitter > 0, "some jitter fixes were kept (and counted as standing)")
    }
}
