// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookTestSupport
import Testing

/// Trips detected from the fixes themselves (motion mode).
struct TripEngineMotionTests {
    static var motion: TripEngineConfiguration {
        var config = TripEngineConfiguration()
        config.motionEnabled = true
        config.defaultVehicle = "golf"
        return config
    }

    @Test func motionIsOffByDefault() {
        var h = TripEngineHarness()
        var track = TrackBuilder()
        h.feed(track.drive(seconds: 300, speed: 20))
        #expect(h.decisions.isEmpty)
    }

    @Test func startNeedsSpeedForThreeSecondsAndTwoHundredMetres() throws {
        var h = TripEngineHarness(configuration: Self.motion)
        var track = TrackBuilder()
        h.feed(track.park(seconds: 10))
        let fixes = track.drive(seconds: 100, speed: 10 / 3.6 + 0.01)  // just over 8 km/h… at 10 km/h
        // 10 km/h = 2.78 m/s: 200 m from the first moving fix after 72 more seconds.
        h.feed(Array(fixes.prefix(72)))
        #expect(h.starts.isEmpty)
        h.feed([fixes[72]])
        let start = try #require(h.starts.only)
        #expect(start.reason == .motion)
        #expect(start.vehicle == "golf")
        #expect(start.gpsTime == fixes[0].time, "back-dated to where the movement began")
        #expect(h.points.count == 73, "the fixes seen while confirming are recorded too")
        let snap = try #require(h.engine.snapshot(at: h.clock.now))
        #expect(abs(snap.distanceMeters - 72 * (10 / 3.6 + 0.01)) < 1)
        #expect(abs(snap.durationSeconds - 72) < 1e-9)
    }

    @Test func aMotionSourcesOwnVehicleIsTheTripsVehicle() throws {
        var config = Self.motion
        config.motionVehicle = "polo"
        var h = TripEngineHarness(configuration: config)
        var track = TrackBuilder()
        h.feed(track.drive(seconds: 120, speed: 10))
        let start = try #require(h.starts.only)
        #expect(start.reason == .motion)
        #expect(start.vehicle == "polo", "the motion source's vehicle, not trip.default_vehicle")
    }

    @Test func slowerThanEightKmhNeverStarts() {
        var h = TripEngineHarness(configuration: Self.motion)
        var track = TrackBuilder()
        h.feed(track.drive(seconds: 600, speed: 7 / 3.6))  // 1.2 km at 7 km/h (a walk with the Pi?)
        #expect(h.starts.isEmpty)
    }

    @Test func aBriefBurstDoesNotStart() {
        var h = TripEngineHarness(configuration: Self.motion)
        var track = TrackBuilder()
        h.feed(track.drive(seconds: 2, speed: 30))  // 2 s only: 60 m
        h.feed(track.drive(seconds: 200, speed: 1.5))  // then crawling 300 m
        #expect(h.starts.isEmpty, "speed was never held for 3 s")
        h.feed(track.drive(seconds: 4, speed: 30))
        #expect(h.starts.count == 1)
    }

    @Test func stopAfterFiveMinutesWithinFiftyMetres() throws {
        var h = TripEngineHarness(configuration: Self.motion)
        var track = TrackBuilder()
        h.feed(track.drive(seconds: 120, speed: 15))
        #expect(h.starts.count == 1)
        let stoppedAt = track.time
        h.feed(track.park(seconds: 290))
        #expect(h.ends.isEmpty)
        #expect(h.engine.phase == .recording)
        h.feed(track.park(seconds: 20))
        let end = try #require(h.ends.only)
        #expect(end.reason == .motion)
        #expect(end.summary.endedAt.map { $0 <= stoppedAt && $0 >= stoppedAt.advancedBy(-4) } == true,
                "ends where the vehicle stopped, not 5 min later")
        #expect(end.summary.durationSeconds < 125)
    }

    @Test func crawlingInAJamIsNotAStop() {
        var h = TripEngineHarness(configuration: Self.motion)
        var track = TrackBuilder()
        h.feed(track.drive(seconds: 60, speed: 15))
        for _ in 0..<10 {  // stop and go: 40 s still, 60 m on, for 10 minutes
            h.feed(track.park(seconds: 40))
            h.feed(track.drive(seconds: 20, speed: 3))
        }
        #expect(h.ends.isEmpty)
    }

    @Test func shortStopContinuesTheTripLongStopSplitsIt() {
        // Stop 200 s, drive on: the same trip.
        var h = TripEngineHarness(configuration: Self.motion)
        var track = TrackBuilder()
        h.feed(track.drive(seconds: 120, speed: 15))
        h.feed(track.park(seconds: 200))
        h.feed(track.drive(seconds: 120, speed: 15))
        #expect(h.starts.count == 1)
        #expect(h.ends.isEmpty)

        // Stop 400 s, drive on: two trips.
        var h2 = TripEngineHarness(configuration: Self.motion)
        var track2 = TrackBuilder()
        h2.feed(track2.drive(seconds: 120, speed: 15))
        h2.feed(track2.park(seconds: 400))
        h2.feed(track2.drive(seconds: 120, speed: 15))
        #expect(h2.starts.count == 2)
        #expect(h2.ends.map(\.reason) == [.motion])
    }

    @Test func mergeWindowLongerThanTheStopHoldsTheEnd() {
        var config = Self.motion
        config.motionStopDuration = 120
        config.shortStopMergeDuration = 300
        var h = TripEngineHarness(configuration: config)
        var track = TrackBuilder()
        h.feed(track.drive(seconds: 120, speed: 15))
        h.feed(track.park(seconds: 200))
        #expect(h.engine.phase == .closing, "stop found, held for the merge window")
        h.feed(track.drive(seconds: 120, speed: 15))
        #expect(h.engine.phase == .recording)
        #expect(h.starts.count == 1)
        #expect(h.ends.isEmpty)

        config.shortStopMergeDuration = 0  // merge disabled: the 120 s stop splits
        var h2 = TripEngineHarness(configuration: config)
        var track2 = TrackBuilder()
        h2.feed(track2.drive(seconds: 120, speed: 15))
        h2.feed(track2.park(seconds: 200))
        h2.feed(track2.drive(seconds: 120, speed: 15))
        #expect(h2.starts.count == 2)
    }

    @Test func resumingFarAwayAfterAHeldStopIsANewTrip() {
        var config = Self.motion
        config.motionStopDuration = 120
        var h = TripEngineHarness(configuration: config)
        var track = TrackBuilder()
        h.feed(track.drive(seconds: 120, speed: 15))
        h.feed(track.park(seconds: 150))
        #expect(h.engine.phase == .closing)
        // No fix for 100 s, then a position 500 m away (a car park lift, a tow, a ferry).
        h.wait(100)
        track.tick(100)
        track.move(north: 500)
        h.feed(track.park(seconds: 1))
        #expect(h.ends.map(\.reason) == [.motion])
        h.feed(track.drive(seconds: 20, speed: 15))
        #expect(h.starts.count == 2, "driving on from the new place is the next trip")
    }

    @Test func shutdownDuringAHeldStopEndsWhereTheVehicleStopped() throws {
        var config = Self.motion
        config.motionStopDuration = 120
        var h = TripEngineHarness(configuration: config)
        var track = TrackBuilder()
        h.feed(track.drive(seconds: 120, speed: 15))
        h.feed(track.park(seconds: 150))
        #expect(h.engine.phase == .closing)
        h.command(.shutdown)
        let end = try #require(h.ends.only)
        #expect(end.reason == .motion, "the vehicle had stopped before the shutdown")
        #expect(end.summary.durationSeconds < 125)
    }

    @Test func powerSourceBeatsMotionStopAndAdoptsTheTrip() throws {
        var config = Self.motion
        config.defaultVehicle = nil
        var h = TripEngineHarness(configuration: config)
        var track = TrackBuilder()
        h.feed(track.drive(seconds: 60, speed: 15))
        #expect(h.starts.map(\.vehicle) == [nil])
        h.signal(.on(.power, "ignition", vehicle: "golf"))
        #expect(h.decisions.last == .adopted(vehicle: "golf", reason: .power("ignition")))
        h.feed(track.park(seconds: 900))
        #expect(h.ends.isEmpty, "while a source is on, motion never ends the trip")
        h.signal(.off(.power, "ignition", vehicle: "golf"))
        h.wait(30)
        let end = try #require(h.ends.only)
        #expect(end.reason == .power("ignition"))
        #expect(end.summary.vehicle == "golf")
        #expect(end.summary.startReason == .motion)
    }

    @Test func manualStopHoldsMotionUntilParked() {
        var h = TripEngineHarness(configuration: Self.motion)
        var track = TrackBuilder()
        h.feed(track.drive(seconds: 60, speed: 15))
        h.command(.stop)
        h.feed(track.drive(seconds: 120, speed: 15))
        #expect(h.starts.count == 1, "no automatic start right after a manual stop")
        h.feed(track.park(seconds: 310))
        h.feed(track.drive(seconds: 60, speed: 15))
        #expect(h.starts.count == 2, "parked since: motion may start trips again")
    }

    @Test func motionSignalStartsAtOnce() {
        var h = TripEngineHarness(configuration: Self.motion)
        h.signal(.on(.motion, "imu"))
        #expect(h.starts.map(\.reason) == [.motion])
        var off = TripEngineHarness()
        off.signal(.on(.motion, "imu"))
        #expect(off.starts.isEmpty, "motion sources count only in motion mode")
    }

    @Test func tunnelAtSpeedIsAGapNotAStop() {
        var h = TripEngineHarness(configuration: Self.motion)
        var track = TrackBuilder()
        h.feed(track.drive(seconds: 60, speed: 25))
        h.wait(400)  // no fixes, last seen at 90 km/h
        #expect(h.ends.isEmpty)
        track.tick(400)
        track.move(north: 10_000)
        h.feed(track.drive(seconds: 10, speed: 25))
        #expect(h.gaps.count == 1)
        #expect(h.starts.count == 1)
    }
}
