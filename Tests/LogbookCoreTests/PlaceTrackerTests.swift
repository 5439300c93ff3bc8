// SPDX-License-Identifier: MIT
import LogbookCore
import Testing

/// Arrivals and departures decided from fixes: two fixes inside to enter, beyond radius +
/// hysteresis to leave, nothing from jitter at the edge.
struct PlaceTrackerTests {
    static let centre = (lat: 48.137, lon: 11.575)
    static let home = TrackedPlace(id: "home", name: "Home", circle: GeoCircle(name: "home", latitude: centre.lat, longitude: centre.lon, radius: 100))

    /// A fix `north` metres north of the centre at second `t`.
    static func fix(_ north: Double, _ t: Int64) -> (Double, Double, GPSTime) {
        (centre.lat + north / 111_195, centre.lon, GPSTime(seconds: 1_700_000_000 + t))
    }

    /// The events as `enter@t` / `leave@t` (seconds after the first fix).
    static func run(_ track: [(north: Double, t: Int64)], hysteresis: Double = 50) -> [String] {
        var tracker = PlaceTracker(hysteresis: hysteresis)
        tracker.setPlaces([home])
        return track.flatMap { step in
            let (lat, lon, time) = fix(step.north, step.t)
            return tracker.accept(latitude: lat, longitude: lon, time: time).map {
                "\($0.kind.rawValue)@\($0.time.wholeSeconds - 1_700_000_000)"
            }
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var track: [(north: Double, t: Int64)]
        var expected: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "one fix inside is no arrival", track: [(500, 0), (50, 1), (500, 2)], expected: []),
        Case(name: "started outside, arrives", track: [(500, 0), (0, 1), (0, 2)], expected: ["enter@2"]),
        Case(name: "two fixes inside: enter at the second", track: [(500, 0), (50, 1), (40, 2), (30, 3)], expected: ["enter@2"]),
        Case(name: "started inside: no arrival, then a departure", track: [(0, 0), (0, 1), (200, 2)], expected: ["leave@2"]),
        Case(name: "leave only beyond radius + hysteresis", track: [(300, 0), (0, 1), (0, 2), (120, 3), (149, 4), (151, 5)], expected: ["enter@2", "leave@5"]),
        Case(name: "jitter across the radius after arriving: nothing", track: [(300, 0), (0, 1), (0, 2), (105, 3), (95, 4), (110, 5), (90, 6), (140, 7), (99, 8)], expected: ["enter@2"]),
        Case(name: "jitter before arriving: one fix in, one out, no arrival", track: [(101, 0), (99, 1), (101, 2), (99, 3), (101, 4)], expected: []),
        Case(name: "sparse fixes: the second fix inside 10 s later", track: [(300, 0), (50, 20), (50, 31)], expected: ["enter@31"]),
        Case(name: "a drive away and back", track: [(0, 0), (0, 1), (500, 30), (900, 60), (80, 120), (60, 121)], expected: ["leave@30", "enter@121"]),
        Case(name: "no hysteresis: leave just beyond the radius", track: [(300, 0), (0, 1), (0, 2), (101, 3)], expected: ["enter@2", "leave@3"]),
    ]

    @Test(arguments: cases) func decides(_ c: Case) {
        let hysteresis: Double = c.name.hasPrefix("no hysteresis") ? 0 : 50
        #expect(Self.run(c.track, hysteresis: hysteresis) == c.expected)
    }

    @Test func currentPlaceIsTheLastEnteredWithItsTime() throws {
        var t = PlaceTracker()
        let shop = TrackedPlace(id: "shop", circle: GeoCircle(name: "shop", latitude: Self.centre.lat + 0.0005, longitude: Self.centre.lon, radius: 200))
        t.setPlaces([Self.home, shop])
        for s in 0..<3 {
            let (lat, lon, time) = Self.fix(0, Int64(s))
            _ = t.accept(latitude: lat, longitude: lon, time: time)
        }
        let current = try #require(t.current)
        #expect(["home", "shop"].contains(current.place.id))
        #expect(current.since == GPSTime(seconds: 1_700_000_001))
    }

    @Test func aPlaceRemovedWhileInsideIsLeftAtTheNextFixAndAMovedOneAtItsNewEdge() {
        var t = PlaceTracker()
        t.setPlaces([Self.home])
        for s in 0..<2 { let (a, b, c) = Self.fix(0, Int64(s)); _ = t.accept(latitude: a, longitude: b, time: c) }
        #expect(t.current?.place.id == "home")
        t.setPlaces([])
        let (a, b, c) = Self.fix(0, 2)
        #expect(t.accept(latitude: a, longitude: b, time: c).map(\.kind) == [.leave])
        #expect(t.current == nil)
        #expect(t.accept(latitude: a, longitude: b, time: c).isEmpty)
        // Added back, moved 1 km north: the car at the old centre is not there.
        var moved = Self.home
        moved.circle.latitude += 1_000 / 111_195
        t.setPlaces([moved])
        for s in 3..<6 { let (a, b, c) = Self.fix(0, Int64(s)); #expect(t.accept(latitude: a, longitude: b, time: c).isEmpty) }
    }
}
