// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookGarage
import LogbookJournal
import LogbookTestSupport
import Logging
import Testing

@testable import LogbookWeb
import LogbookRecords

/// The Dashboard, Garage and Report over the real index of a real journal holding the Munich
/// trip and garage entries as logbookd records them: the KPIs, fuel list, service state and
/// report against figures worked out by hand, and every bad input answered 4xx before it
/// reaches the journal (no daemon runs here: a write that passes the checks is appended under
/// the journal's lock, as `logbook` does).
@Suite(.serialized) struct GarageServerTests {
    /// Two full fill-ups 600 km apart (36 L: 6.00 L/100 km) and an oil change due every
    /// 10,000 km, last done at 0 km (overdue at ~10,600 km).
    static func writeGarage(_ state: String) async throws {
        let journal = try JournalWriter.open(
            JournalConfiguration(directory: state + "/journal", stateDirectory: state), logger: Logger(label: "web-garage-fixture"))
        let requests: [(String, [(String, JSONValue)])] = [
            ("fuel.add", [("vehicle", .string("golf")), ("at", .string("2026-10-01T08:00:00Z")), ("odometer_km", .number(10_000)),
                          ("litres", .number(40)), ("price", .number(70)), ("currency", .string("EUR"))]),
            ("fuel.add", [("vehicle", .string("golf")), ("at", .string("2026-10-20T08:00:00Z")), ("odometer_km", .number(10_600)),
                          ("litres", .number(36)), ("price", .number(63)), ("currency", .string("EUR")), ("station", .string("Aral"))]),
            ("service.add", [("task", .string("golf-oil")), ("vehicle", .string("golf")), ("name", .string("Oil change")),
                             ("every_km", .number(10_000)), ("last_done_at", .string("2026-01-01T00:00:00Z")), ("last_done_km", .number(0))]),
        ]
        for (name, fields) in requests {
            let entry = try EntryCommand.named(name)!.draft(.object([("cmd", .string(name))] + fields + [("origin", .string("test"))]), now: GPSTime(seconds: 0))
            _ = try journal.append(.entry(UserEntry(
                type: entry.type, action: .add, subject: entry.subject, fields: entry.fields, recordedAt: 1, origin: entry.origin)))
        }
        try await journal.sync()
        try await journal.close()
    }

    @Test(.timeLimit(.minutes(2)))
    func dashboardGarageAndReportComeFromTheIndex() async throws {
        let dir = try TemporaryDirectory("wga")
        defer { dir.remove() }
        let summary = try await TripServerTests.writeJournal(dir.file("state"))
        try await Self.writeGarage(dir.file("state"))
        try await WebHarness.run(WebHarness.configuration(dir)) { _, client in
            let stats = try await client.request("GET", "/api/stats?range=all")
            #expect(stats.status == 200, "\(stats)")
            let json = try #require(stats.json)
            #expect(json["fill_ups"] == .number(2) && json["economy_l_per_100km"] == .number(6))
            #expect(json["total_spend"]?["EUR"] == .number(133))
            #expect(abs((json["total_distance_km"]?.doubleValue ?? 0) - summary.distance / 1000) < 0.001, "\(json)")
            let service = try #require(json["service"]?.items?.first)
            #expect(service["task"] == .string("golf-oil") && service["state"] == .string("overdue"), "\(service)")

            let fuel = try await client.request("GET", "/api/fuel?limit=1")
            let logs = try #require(fuel.json?["fuel_logs"]?.items)
            #expect(logs.count == 1 && logs.first?["odometer_km"] == .number(10_600) && logs.first?["station"] == .string("Aral"))

            let garage = try await client.request("GET", "/api/garage")
            #expect(garage.json?["vehicles"]?.items?.first?["id"] == .string("golf"), "\(garage)")

            let dashboard = try await client.request("GET", "/dashboard?range=all")
            #expect(dashboard.status == 200 && dashboard.text.contains("id=\"economy-chart\"") && dashboard.text.contains("6.00 L/100 km"))
            #expect(dashboard.text.contains("overdue") && dashboard.text.contains("Oil change"))
            let page = try await client.request("GET", "/garage")
            #expect(page.status == 200 && page.text.contains("36.00 L") && page.text.contains("Aral"))
            #expect(!page.text.contains("{{csrf}}") && page.text.contains("name=\"csrf\" value=\""))

            // The report of the trip's year: one trip, unclassified, the CSV and the A4 page.
            let trip = try await client.request("GET", "/api/trips/1")
            let year = try #require(trip.json?["started_at"]?.stringValue?.prefix(4))
            let report = try await client.request("GET", "/report?year=\(year)")
            #expect(report.status == 200 && report.text.contains("1 trip<") && report.text.contains("id=\"total-unclassified\""), "\(report)")
            let csv = try await client.request("GET", "/api/report?year=\(year)&format=csv")
            #expect(csv.status == 200 && csv.header("Content-Type") == "text/csv" && csv.text.contains("unclassified"), "\(csv)")
            let printable = try await client.request("GET", "/report/print?year=\(year)")
            #expect(printable.status == 200 && printable.text.contains("Mileage report \(year)"))
            #expect(printable.header("Content-Security-Policy")?.contains("style-src 'unsafe-inline'") == true)
            #expect(printable.header("Content-Security-Policy")?.contains("script") == false)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func badInputIsRefusedBeforeTheDaemon() async throws {
        let dir = try TemporaryDirectory("wgb")
        defer { dir.remove() }
        _ = try await TripServerTests.writeJournal(dir.file("state"))
        try await Self.writeGarage(dir.file("state"))
        try await WebHarness.run(WebHarness.configuration(dir)) { _, client in
            for (path, status) in [
                ("/api/stats?range=decade", 400), ("/api/stats?vehicle=polo", 404), ("/api/fuel?limit=0", 400),
                ("/api/fuel?vehicle=polo", 404), ("/api/report?year=abc", 400), ("/api/report?format=pdf", 400),
                ("/api/report?vehicle=polo", 404),
            ] {
                let r = try await client.request("GET", path)
                #expect(r.status == status && r.json?["error"]?["code"]?.stringValue != nil, "\(path): \(r)")
            }
            let page = try await client.request("GET", "/dashboard?range=x")
            #expect(page.status == 400 && page.text.contains("range: expected one of"), "\(page)")
            let session = try await client.request("GET", "/api/session")
            let cookie = try #require(session.sessionCookie)
            let csrf = try #require(session.json?["csrf_token"]?.stringValue)
            let headers = ["Cookie": "logbook_session=\(cookie)", "X-CSRF-Token": csrf, "Content-Type": "application/json"]
            func post(_ path: String, _ body: String) async throws -> (Int, String?) {
                let r = try await client.request("POST", path, headers: headers, body: body)
                return (r.status, r.json?["error"]?["code"]?.stringValue)
            }
            let fill = #""odometer_km":11000,"litres":30,"price":50,"currency":"EUR""#
            #expect(try await post("/api/fuel", "{}") == (400, "bad_request"))
            #expect(try await post("/api/fuel", #"{"vehicle":"golf","litres":"a lot"}"#) == (400, "bad_request"))
            #expect(try await post("/api/fuel", #"{"vehicle":"golf","colour":"red"}"#) == (400, "bad_request"))
            #expect(try await post("/api/fuel", #"{"vehicle":"polo",\#(fill)}"#) == (404, "unknown_vehicle"))
            #expect(try await post("/api/fuel", #"{"vehicle":"golf","odometer_km":9000,"litres":30,"price":50,"currency":"EUR"}"#) == (422, "odometer_backwards"))
            #expect(try await post("/api/trips/1/class", #"{"class":"leisure"}"#) == (400, "bad_request"))
            #expect(try await post("/api/trips/99/class", #"{"class":"business"}"#) == (404, "unknown_trip"))
            // Valid; logbookd is not running here, so it is appended under the journal's lock
            // (the CLI's way without a daemon) and the next read shows it.
            #expect(try await post("/api/fuel", #"{"vehicle":"golf",\#(fill)}"#) == (200, nil))
            let logs = try await client.request("GET", "/api/fuel", headers: headers)
            #expect(logs.json?["fuel_logs"]?.items?.first?["odometer_km"] == .number(11_000), "\(logs)")
            // The Garage form: a refusal comes back on the page, with what was typed.
            let form = try await client.request(
                "POST", "/garage/fuel", headers: ["Cookie": "logbook_session=\(cookie)", "Content-Type": "application/x-www-form-urlencoded"],
                body: "csrf=\(csrf)&vehicle=golf&odometer_km=9000&litres=30&price=50&currency=eur&full=on")
            #expect(form.status == 422 && form.text.contains("odometer going backwards") && form.text.contains("value=\"9000\""), "\(form)")
            let words = try await client.request(
                "POST", "/garage/fuel", headers: ["Cookie": "logbook_session=\(cookie)", "Content-Type": "application/x-www-form-urlencoded"],
                body: "csrf=\(csrf)&vehicle=golf&odometer_km=lots&litres=30&price=50&currency=EUR")
            #expect(words.status == 400 && words.text.contains("is not a number"), "\(words)")
        }
    }

    @Test func economyChartDrawsEveryPointAndEscapesLabels() {
        let points = (1...12).map { GarageStats.TrendPoint(label: "2026-\($0 < 10 ? "0" : "")\($0)<", litresPer100km: 5 + Double($0) / 10, distanceKm: 800) }
        let svg = EconomyChart(points: points, imperial: false).svg()
        #expect(svg.components(separatedBy: "<circle class=\"point\"").count - 1 == 12)
        #expect(!svg.contains("<\"") && svg.contains("2026-12&lt;"))
        #expect(svg.contains("<path d=\"M"))
        let mpg = EconomyChart(points: [points[0]], imperial: true).svg()
        #expect(mpg.contains("mpg") && !mpg.contains("<path"))
        #expect(EconomyChart(points: [], imperial: false).svg().isEmpty)
    }
}
