// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import LogbookRecords
import LogbookTestSupport
import Testing

@testable import LogbookWeb

/// The web's Routes view and `/api/routes` on test-made trips between named places (a real
/// journal and index), the trip page's link to its route, and the Dashboard's count of
/// unclassified trips.
@Suite(.serialized) struct RoutesPageTests {
    static let places = [("home", 47.3700, 8.5400), ("office", 47.3900, 8.5100)]

    /// (from, to, km, minutes): trips 1…5 a day apart.
    static let trips: [(Int, Int, Double, Double)] = [(0, 1, 8.2, 18), (1, 0, 8.6, 24), (0, 1, 8.0, 16), (0, 1, 8.4, 21), (1, 0, 8.4, 22)]

    static func write(_ state: String) async throws {
        let entries = places.map { PlaceRecord(name: $0.0, latitude: $0.1, longitude: $0.2, radius: 150).entry(subject: $0.0, origin: "cli") }
        _ = try await EntryAppender.append(entries, recordedAt: GPSTime(seconds: 1_793_500_000), journalDirectory: state + "/journal", stateDirectory: state)
        let w = try await EntryAppender.openWriter(journalDirectory: state + "/journal", stateDirectory: state)
        for (i, t) in trips.enumerated() {
            let id = w.nextTripID()
            let start = GPSTime(seconds: 1_793_577_600 + Int64(i) * 86_400), end = GPSTime(seconds: 1_793_577_600 + Int64(i) * 86_400 + Int64(t.3 * 60))
            let a = places[t.0], b = places[t.1]
            try w.append(.tripStarted(TripStarted(id: id, vehicleID: "golf", reason: "manual", gpsTime: start, monotonicNanoseconds: 1, bootID: "t")))
            try w.append(.points(id, [TripPoint(time: start, latitude: a.1, longitude: a.2, eph: 5), TripPoint(time: end, latitude: b.1, longitude: b.2, eph: 5)]))
            let summary = TripSummary(distance: t.2 * 1000, duration: t.3 * 60, maxSpeed: 20, averageSpeed: 8, pointCount: 2)
            try w.append(.tripEnded(TripEnded(id: id, reason: "manual", gpsTime: end, summary: summary, monotonicNanoseconds: 2)))
        }
        try await w.close()
    }

    @Test(.timeLimit(.minutes(2)))
    func theRoutesViewGroupsTripsAndATripPageLinksToItsRoute() async throws {
        let dir = try TemporaryDirectory("wroutes")
        defer { dir.remove() }
        try await Self.write(dir.file("state"))
        try await WebHarness.run(WebHarness.configuration(dir)) { _, client in
            let web = try await WebSession.open(client)
            let api = try await web.get("/api/routes")
            let routes = api.json?["routes"]?.items ?? []
            // By hand: home → office 8.0 [8.2] 8.4 km, 16 [18] 21 min; office → home (8.4 + 8.6) / 2 km, (22 + 24) / 2 min.
            #expect(routes.map { [$0["from"]?.stringValue, $0["to"]?.stringValue] } == [["home", "office"], ["office", "home"]], "\(api.text)")
            #expect(routes.first?["median_distance_m"]?.doubleValue.map { abs($0 - 8200) < 0.5 } == true)
            #expect(routes.first?["median_duration_s"] == .number(18 * 60) && routes.last?["median_duration_s"] == .number(23 * 60))
            #expect(routes.last?["median_distance_m"]?.doubleValue.map { abs($0 - 8500) < 0.5 } == true)
            #expect(routes.first?["fastest"]?["trip"] == .number(3) && routes.first?["slowest"]?["trip"] == .number(4))

            let trip = try await web.get("/trips/2")
            #expect(trip.text.contains("<a id=\"route-link\" href=\"/routes?from=office&amp;to=home\">office → home</a>"), "\(trip.text)")
            let page = try await web.get("/routes?from=office&to=home")
            #expect(page.status == 200 && page.text.contains("<h2 id=\"route-name\">office → home</h2>"), "\(page.text)")
            #expect(page.text.contains("Trips, newest first: <a href=\"/trips/5\">5</a>, <a href=\"/trips/2\">2</a>"))
            #expect(try await web.get("/trips").text.contains("href=\"/routes\""))

            // Issue 27 part 3: the Dashboard says how many trips wait for a class, and the oldest.
            _ = try await web.form("/trips/1/class", [("class", "business")])
            let dashboard = try await web.get("/dashboard")
            #expect(dashboard.text.contains("4 unclassified trips, the oldest (<a href=\"/trips/2\">trip 2</a>)"), "\(dashboard.text)")
        }
    }
}
