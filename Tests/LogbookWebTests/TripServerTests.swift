// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import LogbookTestSupport
import Logging
import Testing

@testable import LogbookWeb

/// The Trips pages and API over the real index (LogbookStore) of a real journal: the list and
/// its totals against the journal's trip-end record, the trip with its gaps, the picture and
/// the exports from LogbookExport, and bad input answered 4xx with a JSON error.
@Suite(.serialized) struct TripServerTests {
    /// A journal written by the real writer from the Munich drive: one trip, vehicle golf.
    static func writeJournal(_ state: String) async throws -> TripSummary {
        let text = try String(contentsOfFile: TestPaths.gpsLog("munich-gps.nmea"), encoding: .isoLatin1)
        let fixes = NMEAReader.fixes(in: text).filter { $0.mode.rawValue >= 2 }
        let journal = try JournalWriter.open(
            JournalConfiguration(directory: state + "/journal", stateDirectory: state), logger: Logger(label: "web-fixture"))
        let id = journal.nextTripID()
        _ = try journal.append(
            .tripStarted(TripStarted(id: id, vehicleID: "golf", reason: "manual", gpsTime: fixes.first?.time, monotonicNanoseconds: 1, bootID: "t")))
        var distance = 0.0
        var last: TripPoint?
        for start in stride(from: 0, to: fixes.count, by: 100) {
            let batch = fixes[start..<min(fixes.count, start + 100)].map { TripPoint($0) }
            _ = try journal.append(.points(id, batch))
            for p in batch {
                if let l = last { distance += Geodesy.distance(l, p) }
                last = p
            }
        }
        let duration = (fixes.last?.time.seconds ?? 0) - (fixes.first?.time.seconds ?? 0)
        let summary = TripSummary(distance: distance, duration: duration, maxSpeed: 20, averageSpeed: distance / duration, pointCount: fixes.count)
        _ = try journal.append(.tripEnded(TripEnded(id: id, reason: "manual", gpsTime: fixes.last?.time, summary: summary)))
        try await journal.sync()
        try await journal.close()
        return summary
    }

    @Test(.timeLimit(.minutes(2)))
    func tripsListPageAndExportsComeFromTheIndex() async throws {
        let dir = try TemporaryDirectory("wtr")
        defer { dir.remove() }
        let summary = try await Self.writeJournal(dir.file("state"))
        try await WebHarness.run(WebHarness.configuration(dir)) { _, client in
            let list = try await client.request("GET", "/api/trips")
            #expect(list.status == 200, "\(list)")
            let trips = try #require(list.json?["trips"]?.items)
            #expect(trips.count == 1)
            let trip = try #require(trips.first)
            #expect(trip["id"] == .string("1") && trip["vehicle"]?["name"] == .string("Golf") && trip["end_reason"] == .string("manual"))
            #expect(trip["points"]?.doubleValue == Double(summary.pointCount))
            #expect(abs((trip["distance_m"]?.doubleValue ?? 0) - summary.distance) < 0.1, "\(trip)")
            #expect(list.json?["totals"]?["trips"] == .number(1))
            print("web-trips: api list 1 trip, \(trip["points"]?.doubleValue ?? 0) points, \(trip["distance_m"]?.doubleValue ?? 0) m (journal \(summary.distance) m)")

            let one = try await client.request("GET", "/api/trips/1")
            #expect(one.status == 200 && one.json?["gaps"]?.items != nil && one.json?["summary"]?.stringValue?.contains("Golf") == true, "\(one)")

            let svg = try await client.request("GET", "/api/trips/1/picture.svg")
            #expect(svg.status == 200 && svg.header("Content-Type") == "image/svg+xml" && svg.text.hasPrefix("<svg"), "\(svg)")
            #expect(svg.text.contains("<path") || svg.text.contains("<polyline"))

            let gpx = try await client.request("GET", "/api/trips/1/export?format=gpx")
            #expect(gpx.status == 200 && gpx.header("Content-Type") == "application/gpx+xml")
            #expect(gpx.header("Content-Disposition") == "attachment; filename=\"trip-1.gpx\"")
            #expect(gpx.text.components(separatedBy: "<trkpt ").count - 1 == summary.pointCount)
            let csv = try await client.request("GET", "/api/trips/1/export?format=csv")
            #expect(csv.status == 200 && csv.body.filter { $0 == 10 }.count == summary.pointCount + 1, "\(csv)")

            let page = try await client.request("GET", "/trips")
            #expect(page.status == 200 && page.text.contains("href=\"/trips/1\""), "\(page)")
            let tripPage = try await client.request("GET", "/trips/1")
            #expect(tripPage.status == 200 && tripPage.text.contains("src=\"/api/trips/1/picture.svg\""), "\(tripPage)")
            #expect(tripPage.text.contains("<span id=\"end-reason\">By hand</span>") && tripPage.text.contains("Golf"))

            // Filters: the vehicle, the dates.
            let none = try await client.request("GET", "/api/trips?vehicle=polo")
            #expect(none.status == 200 && none.json?["trips"]?.items?.isEmpty == true)
            let early = try await client.request("GET", "/api/trips?until=2001-01-01")
            #expect(early.status == 200 && early.json?["trips"]?.items?.isEmpty == true)

            // Bad input: 4xx with a JSON error, never 5xx.
            for (path, status) in [
                ("/api/trips/2", 404), ("/api/trips/abc", 400), ("/api/trips/0", 400), ("/api/trips/99999999999999999999999", 400),
                ("/api/trips?limit=0", 400), ("/api/trips?limit=x", 400), ("/api/trips?since=2029-13-40", 400),
                ("/api/trips?include_discarded=maybe", 400), ("/api/trips?since=2030-01-01&until=2029-01-01", 400),
                ("/api/trips/1/export?format=kml", 400), ("/api/trips/7/picture.svg", 404),
            ] {
                let r = try await client.request("GET", path)
                #expect(r.status == status && r.json?["error"]?["code"]?.stringValue != nil, "\(path): \(r)")
            }
            let missing = try await client.request("GET", "/trips/5")
            #expect(missing.status == 404 && missing.text.contains("<html"))
            let badDates = try await client.request("GET", "/trips?since=yesterday")
            #expect(badDates.status == 200 && badDates.text.contains("role=\"alert\""))
        }
    }

    @Test func anUnusableIndexIs503NotA500() async throws {
        let dir = try TemporaryDirectory("wti")
        defer { dir.remove() }
        var configuration = WebHarness.configuration(dir)
        // The index's directory is a file: it cannot be created.
        _ = FileManager.default.createFile(atPath: dir.file("blocker"), contents: Data())
        configuration.configuredIndexPath = dir.file("blocker/index.sqlite")
        try await WebHarness.run(configuration) { _, client in
            let r = try await client.request("GET", "/api/trips")
            #expect(r.status == 503 && r.json?["error"]?["code"] == .string("index_unavailable"), "\(r)")
        }
    }
}

extension JSONValue {
    /// The elements of an array.
    var items: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
}
