// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookTestSupport
import Testing

/// Privacy zones in the trip engine: nothing inside is recorded, the edge is, and distance
/// counts from the edge.
struct PrivacyZoneTests {
    /// A zone of `radius` m centred on the track's start (Munich).
    func engine(radius: Double = 300) -> (TripEngineHarness, PrivacyZone, TrackBuilder) {
        let track = TrackBuilder()
        let zone = PrivacyZone(name: "home", latitude: track.latitude, longitude: track.longitude, radius: radius)
        var c = TripEngineConfiguration()
        c.privacyZones = [zone]
        return (TripEngineHarness(configuration: c), zone, track)
    }

    func crossings(_ h: TripEngineHarness) -> [PrivacyZoneCrossing] {
        h.decisions.compactMap { if case .privacyZone(let c) = $0 { c } else { nil } }
    }

    @Test func aTripLeavingHomeRecordsNothingInsideAndStartsAtTheEdge() throws {
        var (h, zone, track) = engine()
        h.signal(.on(.power, "ignition"))
        h.feed(track.park(seconds: 30))
        h.feed(track.drive(seconds: 100, speed: 10))  // 1 km north: out of the 300 m zone
        h.signal(.off(.power, "ignition"))
        h.wait(60)
        for p in h.points {
            #expect(zone.distance(latitude: p.latitude, longitude: p.longitude) > zone.radius)
        }
        let first = try #require(h.points.first)
        let fromEdge = zone.distance(latitude: first.latitude, longitude: first.longitude) - zone.radius
        // At the margin past the edge (or the first fix itself, when that is already within it).
        #expect(fromEdge > 0 && fromEdge <= PrivacyZone.edgeMargin * 1.01)
        #expect(crossings(h).map(\.entered) == [false])
        #expect(crossings(h).first?.zone == "home")
        // Distance from the edge: the fixes run from 10 m to 1,000 m north of the centre, 300 m
        // (+1 m margin) of that inside.
        let end = try #require(h.ends.only)
        #expect(abs(end.summary.distanceMeters - 699) < 3, "got \(end.summary.distanceMeters)")
    }

    @Test func aTripComingHomeEndsAtTheEdge() throws {
        var (h, zone, track) = engine()
        track.move(north: 2_000)
        h.signal(.on(.power, "ignition"))
        h.feed(track.drive(seconds: 200, speed: 10, bearingNorth: -1))  // 2 km south: home is the centre
        h.feed(track.park(seconds: 20))
        h.signal(.off(.power, "ignition"))
        h.wait(60)
        let last = try #require(h.points.last)
        #expect(zone.distance(latitude: last.latitude, longitude: last.longitude) > zone.radius)
        #expect(zone.distance(latitude: last.latitude, longitude: last.longitude) < zone.radius + 2)
        #expect(h.points.allSatisfy { zone.distance(latitude: $0.latitude, longitude: $0.longitude) > zone.radius })
        #expect(crossings(h).map(\.entered) == [true])
        let end = try #require(h.ends.only)
        // Fixes from 1,990 m down to the centre; counted down to the edge (301 m).
        #expect(abs(end.summary.distanceMeters - (1_990 - 301)) < 3, "got \(end.summary.distanceMeters)")
    }

    @Test func drivingThroughAZoneLeavesAHoleBetweenTwoEdges() throws {
        var (h, zone, track) = engine(radius: 200)
        track.move(north: -1_000)
        h.signal(.on(.power, "ignition"))
        h.feed(track.drive(seconds: 200, speed: 10))  // 2 km north, straight through the centre
        h.signal(.off(.power, "ignition"))
        h.wait(60)
        #expect(crossings(h).map(\.entered) == [true, false])
        #expect(h.points.allSatisfy { zone.distance(latitude: $0.latitude, longitude: $0.longitude) > zone.radius })
        // Fixes from 990 m south to 1,000 m north; the 400 m chord inside (+2 × 1 m margin) not counted.
        let end = try #require(h.ends.only)
        #expect(abs(end.summary.distanceMeters - (1_990 - 402)) < 3, "got \(end.summary.distanceMeters)")
        let times = h.points.map(\.time.nanoseconds)
        #expect(times == times.sorted())
    }

    @Test func withoutZonesNothingChanges() throws {
        var h = TripEngineHarness()
        var track = TrackBuilder()
        h.signal(.on(.power, "ignition"))
        h.feed(track.drive(seconds: 100, speed: 10))
        h.signal(.off(.power, "ignition"))
        h.wait(60)
        #expect(h.points.count == 100)
        #expect(abs((h.ends.only?.summary.distanceMeters ?? 0) - 990) < 3)  // the first fix starts the count
        #expect(crossings(h).isEmpty)
    }

    @Test func theEdgePointLiesJustOutsideOnTheSegment() {
        let zone = PrivacyZone(name: "z", latitude: 47, longitude: 8, radius: 250)
        let inside = TripPoint(time: GPSTime(seconds: 100), latitude: 47.001, longitude: 8, speed: 10)
        let outside = TripPoint(time: GPSTime(seconds: 102), latitude: 47.003, longitude: 8, speed: 20)
        let edge = zone.edgePoint(inside: inside, outside: outside)
        let d = zone.distance(latitude: edge.latitude, longitude: edge.longitude)
        #expect(d > 250 && d < 251.01)
        #expect(edge.time > inside.time && edge.time < outside.time)
        #expect(edge.longitude == 8)
        #expect((edge.speed ?? 0) > 10 && (edge.speed ?? 0) < 20)
    }
}
