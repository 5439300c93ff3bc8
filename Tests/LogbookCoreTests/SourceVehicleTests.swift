// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookTestSupport
import Testing

/// A source's `vehicle` is the trip's vehicle for every kind of source, never
/// `trip.default_vehicle` (issue 23: a motion source's trips had lost theirs).
struct SourceVehicleTests {
    @Test(arguments: VehicleSignal.Kind.allCases)
    func aTripStartedByASourceHasTheSourcesVehicle(kind: VehicleSignal.Kind) throws {
        var config = TripEngineConfiguration()
        config.defaultVehicle = "golf"
        config.motionEnabled = true
        var h = TripEngineHarness(configuration: config)
        var track = TrackBuilder()
        h.feed(track.park(seconds: 5))
        _ = h.signal(VehicleSignal(kind: kind, name: "s", vehicle: "polo", isOn: true))
        h.feed(track.drive(seconds: 120, speed: 15))
        let start = try #require(h.starts.first, "\(kind) started no trip")
        #expect(start.vehicle == "polo", "\(kind): \(start.vehicle ?? "nil")")
        // Without a vehicle of its own the source's trip is the default vehicle's.
        var plain = TripEngineHarness(configuration: config)
        var again = TrackBuilder()
        plain.feed(again.park(seconds: 5))
        _ = plain.signal(VehicleSignal(kind: kind, name: "s", isOn: true))
        plain.feed(again.drive(seconds: 120, speed: 15))
        #expect(plain.starts.first?.vehicle == "golf", "\(kind)")
    }
}
