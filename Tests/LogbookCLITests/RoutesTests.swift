// SPDX-License-Identifier: MIT
import Foundation
import LogbookTestSupport
import Testing

/// `logbook routes` on the two-week fixture history (``FixtureHistory``): the groups, medians,
/// extremes and last-driven times, computed by hand from the fixture's table.
@Suite struct RoutesTests {
    struct Expected {
        var from: String, to: String, trips: [Int], medianKm: Double, medianMin: Double
        var fastest: Int, slowest: Int, last: String
    }

    // By hand from FixtureHistory.trips (trip n is row n):
    // home→office km 8.0 8.0 8.1 8.1 8.2 [8.2] 8.2 8.2 8.3 8.3 8.4, min 15 16 16 17 17 [18] 18 18 19 20 21;
    // office→home km 8.3 8.4 8.4 8.4 8.5 [8.5] 8.5 8.6 8.6 8.6 8.7, min 14 17 18 20 21 [22] 22 23 24 25 26;
    // home→shop km 2.0 [2.1] 2.1, min 6 [7] 7; shop→home km 2.2 [2.2] 2.3, min 8 [8] 9.
    static let expected = [
        Expected(from: "home", to: "office", trips: [1, 3, 5, 9, 11, 15, 17, 19, 21, 25, 27], medianKm: 8.2, medianMin: 18,
                 fastest: 15, slowest: 17, last: "2026-11-13T07:30:00Z"),
        Expected(from: "office", to: "home", trips: [2, 4, 6, 10, 12, 16, 18, 20, 24, 26, 28], medianKm: 8.5, medianMin: 22,
                 fastest: 12, slowest: 10, last: "2026-11-13T17:15:00Z"),
        Expected(from: "home", to: "shop", trips: [7, 13, 29], medianKm: 2.1, medianMin: 7, fastest: 13, slowest: 7, last: "2026-11-14T09:00:00Z"),
        Expected(from: "shop", to: "home", trips: [8, 14, 30], medianKm: 2.2, medianMin: 8, fastest: 8, slowest: 14, last: "2026-11-15T18:00:00Z"),
        Expected(from: "office", to: "shop", trips: [22], medianKm: 5.0, medianMin: 12, fastest: 22, slowest: 22, last: "2026-11-11T12:00:00Z"),
        Expected(from: "shop", to: "office", trips: [23], medianKm: 5.1, medianMin: 13, fastest: 23, slowest: 23, last: "2026-11-11T12:30:00Z"),
    ]

    @Test func routesOfTheFixtureHistoryAreTheHandComputedGroups() async throws {
        let dir = try TemporaryDirectory("lb-routes")
        defer { dir.remove() }
        let cli = try await FixtureHistory.make(in: dir, rules: "")
        let out = try cli.ok(["routes", "--json"]).out
        let doc = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any] ?? [:]
        let routes = doc["routes"] as? [[String: Any]] ?? []
        #expect(routes.count == Self.expected.count, "\(out)")
        var differ = 0
        for (got, want) in zip(routes, Self.expected) {
            let fastest = (got["fastest"] as? [String: Any])?["trip"] as? Int, slowest = (got["slowest"] as? [String: Any])?["trip"] as? Int
            let ok = got["from"] as? String == want.from && got["to"] as? String == want.to && got["trips"] as? [Int] == want.trips
                && got["count"] as? Int == want.trips.count
                && abs((got["median_distance_m"] as? Double ?? 0) - want.medianKm * 1000) < 0.5
                && abs((got["median_duration_s"] as? Double ?? 0) - want.medianMin * 60) < 0.5
                && fastest == want.fastest && slowest == want.slowest && got["last_driven"] as? String == want.last
            if !ok { differ += 1 }
            #expect(ok, "\(want.from) → \(want.to): got \(got)")
        }
        #expect(doc["unnamed_trips"] as? Int == 0)
        print("routes: \(routes.count) routes over \(FixtureHistory.trips.count) trips, \(differ) differ from the hand-computed groups and medians")

        let text = try cli.ok(["routes"]).out
        #expect(text.contains("home → office") && text.contains("15 min (trip 15)") && text.contains("26 min (trip 10)"), "\(text)")
        let vanOnly = try cli.ok(["routes", "--vehicle", "van"]).out
        #expect(vanOnly.contains("No routes yet"), "\(vanOnly)")
    }
}
