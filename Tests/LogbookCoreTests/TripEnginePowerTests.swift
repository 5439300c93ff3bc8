// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookTestSupport
import Testing

/// Trips driven by connection sources (power, gpio, bluetooth, device, service).
struct TripEnginePowerTests {
    let ignitionOn = VehicleSignal.on(.power, "ignition", vehicle: "golf")
    let ignitionOff = VehicleSignal.off(.power, "ignition", vehicle: "golf")

    @Test func powerOnDriveOffEndsAfterTheGrace() throws {
        var h = TripEngineHarness()
        var track = TrackBuilder()
        let start = h.signal(ignitionOn)
        #expect(start == [.start(TripStartInfo(vehicle: "golf", reason: .power("ignition"), gpsTime: nil, startedAt: h.clock.now))])
        #expect(h.engine.phase == .recording)
        h.feed(track.drive(seconds: 120, speed: 15))
        h.feed(track.park(seconds: 5))
        let offAt = h.clock.now
        #expect(h.signal(ignitionOff).isEmpty)
        #expect(h.engine.phase == .closing)
        h.wait(29)
        #expect(h.ends.isEmpty, "still within the grace")
        h.wait(1)
        let end = try #require(h.ends.only)
        #expect(end.reason == .power("ignition"))
        #expect(end.reason.rawValue == "power:ignition")
        #expect(!end.discarded)
        #expect(end.summary.vehicle == "golf")
        #expect(end.summary.active == false)
        #expect(end.summary.endReason == .power("ignition"))
        #expect(abs(end.summary.durationSeconds - offAt.seconds(since: h.starts[0].startedAt)) < 1e-9,
                "the trip ends when the power went off, not when the grace ran out")
        #expect(abs(end.summary.distanceMeters - 119 * 15) < 2)
        #expect(end.summary.points == 125)
        #expect(h.engine.phase == .idle)
        #expect(h.engine.lastTrip == end.summary)
        #expect(h.engine.snapshot(at: h.clock.now) == nil)
    }

    @Test func flappingPowerWithinTheGraceDoesNotSplit() {
        var h = TripEngineHarness()
        var track = TrackBuilder()
        h.signal(ignitionOn)
        h.feed(track.drive(seconds: 30, speed: 10))
        for _ in 0..<3 {  // engine restart, cranking voltage dips
            h.signal(ignitionOff)
            h.wait(20)
            h.signal(ignitionOn)
            #expect(h.engine.phase == .recording)
            h.feed(track.drive(seconds: 30, speed: 10))
        }
        #expect(h.starts.count == 1)
        #expect(h.ends.isEmpty)
        h.signal(ignitionOff)
        h.wait(31)
        #expect(h.starts.count == 1)
        #expect(h.ends.count == 1)
    }

    @Test func powerOffAtStandstillClosesAfterTheGrace() throws {
        var h = TripEngineHarness()
        var track = TrackBuilder()
        h.feed(track.park(seconds: 3))
        h.signal(ignitionOn)
        h.feed(track.park(seconds: 120))
        h.signal(ignitionOff)
        h.wait(30)
        let end = try #require(h.ends.only)
        #expect(end.reason == .power("ignition"))
        #expect(end.summary.distanceMeters == 0)
        #expect(!end.discarded, "120 s is longer than the 60 s discard limit")
        #expect(h.starts[0].gpsTime == track.time.advancedBy(-120), "a fresh fix dates the start")
    }

    @Test func shortTripIsEndedAsDiscarded() throws {
        var h = TripEngineHarness()
        var track = TrackBuilder()
        h.signal(ignitionOn)
        h.feed(track.drive(seconds: 10, speed: 2))  // 18 m in 10 s
        h.signal(ignitionOff)
        h.wait(30)
        let end = try #require(h.ends.only)
        #expect(end.discarded)
        #expect(end.summary.discarded)
        #expect(end.summary.distanceMeters < 50)
    }

    @Test func shortButFarTripIsKept() throws {
        var h = TripEngineHarness()
        var track = TrackBuilder()
        h.signal(ignitionOn)
        h.feed(track.drive(seconds: 20, speed: 10))  // 190 m in 20 s
        h.signal(ignitionOff)
        h.wait(30)
        #expect(try #require(h.ends.only).discarded == false)
    }

    @Test func eachSourceKindGivesItsReason() {
        let cases: [(VehicleSignal.Kind, String, String)] = [
            (.power, "ignition", "power:ignition"), (.gpio, "17", "gpio:17"),
            (.bluetooth, "AA:BB:CC:DD:EE:FF", "bluetooth:AA:BB:CC:DD:EE:FF"), (.device, "obd0", "device:obd0"),
            (.service, "canbus", "service"),
        ]
        for (kind, name, reason) in cases {
            var h = TripEngineHarness()
            h.signal(.on(kind, name))
            h.signal(.off(kind, name))
            h.wait(30)
            #expect(h.starts.map(\.reason.rawValue) == [reason])
            #expect(h.ends.map(\.reason.rawValue) == [reason])
        }
    }

    @Test func graceWaitsForTheLastSourceAndUsesItsReason() throws {
        var h = TripEngineHarness()
        h.signal(.on(.power, "ignition"))
        h.signal(.on(.bluetooth, "AA:BB"))
        h.signal(.off(.power, "ignition"))
        h.wait(60)
        #expect(h.ends.isEmpty, "bluetooth still holds the trip")
        h.signal(.off(.bluetooth, "AA:BB"))
        h.wait(30)
        #expect(try #require(h.ends.only).reason == .bluetooth("AA:BB"))
    }

    @Test func bluetoothOfAnotherVehicleSplitsIntoTwoTripsWithTheirOwnVehicles() throws {
        var config = TripEngineConfiguration()
        config.defaultVehicle = "van"  // the "most recently added car" must not win
        var h = TripEngineHarness(configuration: config)
        var track = TrackBuilder()
        h.signal(.on(.bluetooth, "AA:AA", vehicle: "golf"))
        h.feed(track.drive(seconds: 60, speed: 10))
        h.signal(.on(.bluetooth, "BB:BB", vehicle: "polo"))
        h.feed(track.drive(seconds: 60, speed: 10))
        h.signal(.off(.bluetooth, "BB:BB", vehicle: "polo"))
        h.wait(30)
        #expect(h.starts.map(\.vehicle) == ["golf", "polo"])
        #expect(h.starts.map(\.reason) == [.bluetooth("AA:AA"), .bluetooth("BB:BB")])
        #expect(h.ends.map(\.summary.vehicle) == ["golf", "polo"])
        #expect(h.ends.map(\.reason) == [.bluetooth("BB:BB"), .bluetooth("BB:BB")])
        // The golf's source is still on but belongs to another vehicle: no hold on polo's trip.
        #expect(h.engine.phase == .idle)
    }

    @Test func sourceWithoutVehicleUsesTheDefault() {
        var config = TripEngineConfiguration()
        config.defaultVehicle = "golf"
        var h = TripEngineHarness(configuration: config)
        h.signal(.on(.gpio, "ign"))
        #expect(h.starts.map(\.vehicle) == ["golf"])
    }

    @Test func anotherVehicleDuringTheGraceEndsWithThePendingReason() throws {
        var h = TripEngineHarness()
        h.signal(.on(.power, "ignition", vehicle: "golf"))
        h.wait(100)
        h.signal(.off(.power, "ignition", vehicle: "golf"))
        h.wait(10)
        h.signal(.on(.bluetooth, "BB", vehicle: "polo"))
        let end = try #require(h.ends.only)
        #expect(end.reason == .power("ignition"))
        #expect(abs(end.summary.durationSeconds - 100) < 1e-9)
        #expect(h.starts.map(\.vehicle) == ["golf", "polo"])
    }

    @Test func zeroGraceEndsAtOnce() {
        var config = TripEngineConfiguration()
        config.powerOffGrace = 0
        var h = TripEngineHarness(configuration: config)
        h.signal(ignitionOn)
        h.wait(100)
        h.signal(ignitionOff)
        #expect(h.ends.count == 1)
    }

    @Test func offWithoutOnAndRepeatedOnAreHarmless() {
        var h = TripEngineHarness()
        h.signal(ignitionOff)
        #expect(h.decisions.isEmpty)
        h.signal(ignitionOn)
        h.signal(ignitionOn)
        #expect(h.starts.count == 1)
        #expect(h.decisions.count == 1, "no adoption decision for a source already holding the trip")
    }
}

extension Array {
    /// The single element, or nil when there are none or several.
    var only: Element? { count == 1 ? first : nil }
}

extension GPSTime {
    func advancedBy(_ seconds: Double) -> GPSTime {
        GPSTime(nanoseconds: nanoseconds + Int64(seconds * 1e9))
    }
}
