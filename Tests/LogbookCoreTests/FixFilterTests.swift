// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookTestSupport
import Testing

struct FixFilterTests {
    func fix(_ seconds: Int64, lat: Double = 48.18, lon: Double = 11.56, mode: FixMode = .threeD,
             speed: Double? = 10, eph: Double? = 5) -> Fix {
        Fix(time: GPSTime(seconds: 1_700_000_000 + seconds), mode: mode, latitude: lat, longitude: lon,
            speed: speed, eph: eph)
    }

    @Test func firstGoodFixIsAcceptedAsMovement() {
        var filter = FixFilter()
        #expect(filter.filter(fix(0)) == .accepted(fix(0), moved: true))
        #expect(filter.counters.accepted == 1)
        #expect(filter.counters.rejected == 0)
        #expect(filter.lastStep == 0)
    }

    @Test func duplicateEpochsAreRejected() {
        var filter = FixFilter()
        _ = filter.filter(fix(0))
        var again = fix(0, lat: 48.1801)  // gpsd's second TPV of the epoch
        again.speed = 11
        #expect(filter.filter(again) == .rejected(.duplicate))
        #expect(filter.counters[.duplicate] == 1)
        #expect(filter.lastAccepted == fix(0))
    }

    @Test func timeGoingBackwardsIsRejectedUntilItPersists() {
        var config = FixFilterConfiguration()
        config.resyncAfterConsecutiveRejections = 3
        var filter = FixFilter(configuration: config)
        _ = filter.filter(fix(100))
        for i in 1...3 {
            #expect(filter.filter(fix(Int64(i))) == .rejected(.timeWentBackwards))
        }
        #expect(filter.counters[.timeWentBackwards] == 3)
        // The fourth in a row: the receiver's clock really jumped; start afresh.
        #expect(filter.filter(fix(4)).fix != nil)
        #expect(filter.counters.resyncs == 1)
        #expect(filter.lastStep == 0, "a resync must not count as distance")
        #expect(filter.filter(fix(5)).fix != nil)
    }

    @Test(arguments: [FixMode.notSeen, .noFix])
    func fixesBelow2DAreRejected(_ mode: FixMode) {
        var filter = FixFilter()
        #expect(filter.filter(fix(0, mode: mode)) == .rejected(.noFix))
        #expect(filter.filter(fix(1, mode: .twoD)).fix != nil)
        #expect(filter.counters[.noFix] == 1)
    }

    @Test(arguments: [
        (Double.nan, 11.0), (48.0, Double.nan), (Double.infinity, 11.0), (90.5, 11.0), (-91, 11.0),
        (48.0, 180.5), (48.0, -181),
    ])
    func invalidCoordinatesAreRejected(_ lat: Double, _ lon: Double) {
        var filter = FixFilter()
        #expect(filter.filter(fix(0, lat: lat, lon: lon)) == .rejected(.invalidCoordinate))
        #expect(filter.counters.rejected == 1)
        #expect(filter.counters.accepted == 0)
    }

    @Test func nullIslandAndZeroTimeAreRejected() {
        var filter = FixFilter()
        #expect(filter.filter(fix(0, lat: 0, lon: 0)) == .rejected(.nullIsland))
        var zeroTime = fix(0)
        zeroTime.time = GPSTime(nanoseconds: 0)
        #expect(filter.filter(zeroTime) == .rejected(.invalidTime))
        #expect(filter.filter(fix(0, lat: 0, lon: 0.001)).fix != nil, "0°/0.001° is a real place")
    }

    @Test func poorAccuracyIsRejectedAndConfigurable() {
        var filter = FixFilter()
        #expect(filter.filter(fix(0, eph: 50.5)) == .rejected(.poorAccuracy))
        #expect(filter.filter(fix(1, eph: 50)).fix != nil)
        var config = FixFilterConfiguration()
        config.maxHorizontalError = 20
        var strict = FixFilter(configuration: config)
        #expect(strict.filter(fix(0, eph: 25)) == .rejected(.poorAccuracy))
        #expect(strict.counters[.poorAccuracy] == 1)
    }

    @Test func impliedSpeedOver250KmhIsAnOutlier() {
        var filter = FixFilter()
        _ = filter.filter(fix(0, lat: 48.0))
        // 1 s later, 0.001° of latitude ≈ 111 m: 400 km/h.
        #expect(filter.filter(fix(1, lat: 48.001, speed: nil)) == .rejected(.speedOutlier))
        // 2 s after the first: 0.001° ≈ 111 m in 2 s is 200 km/h, fine.
        #expect(filter.filter(fix(2, lat: 48.001, speed: nil)).fix != nil)
        #expect(filter.counters[.speedOutlier] == 1)
    }

    @Test func reportedSpeedOver250KmhIsAnOutlier() {
        var filter = FixFilter()
        #expect(filter.filter(fix(0, speed: 70)) == .rejected(.speedOutlier))
        #expect(filter.filter(fix(1, speed: 69)).fix != nil)
    }

    @Test func singleJumpDoesNotPoisonTheFilter() {
        var filter = FixFilter()
        _ = filter.filter(fix(0, lat: 48.0))
        #expect(filter.filter(fix(1, lat: 49.0)) == .rejected(.speedOutlier))
        #expect(filter.filter(fix(2, lat: 48.0001)).moved)
    }

    @Test func parkedJitterIsAcceptedButNotMovement() {
        var filter = FixFilter()
        var track = TrackBuilder(eph: 3)
        _ = filter.filter(track.fix(speed: 0))
        track.tick()
        track.move(north: 6)  // under max(10 m, 2 × 3 m)
        let jitter = filter.filter(track.fix(speed: 0.2))
        #expect(jitter.fix != nil)
        #expect(!jitter.moved)
        #expect(filter.lastStep == 0)
        track.tick()
        track.move(north: 6)  // now 12 m from where it stood: real movement
        let moved = filter.filter(track.fix(speed: 0.5))
        #expect(moved.moved)
        #expect(abs(filter.lastStep - 12) < 0.05)
        #expect(filter.counters.jitter == 1)
        #expect(filter.counters.accepted == 3)
    }

    @Test func jitterRadiusGrowsWithEph() {
        var filter = FixFilter()
        var track = TrackBuilder(eph: 15)
        _ = filter.filter(track.fix(speed: 0))
        track.tick()
        track.move(north: 25)  // under 2 × 15 m
        #expect(!filter.filter(track.fix(speed: 0)).moved)
    }

    @Test func slowButMovingIsNotJitterWhenFast() {
        var filter = FixFilter()
        var track = TrackBuilder(eph: 3)
        _ = filter.filter(track.fix(speed: 5))
        track.tick()
        track.move(north: 5)
        #expect(filter.filter(track.fix(speed: 5)).moved, "5 m at 5 m/s is driving, not jitter")
    }
}
