// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import LogbookRecords
import LogbookTestSupport
import Testing

@testable import LogbookWeb

/// The Garage's pending fill-ups (the OBD adapter's `fuel.pending` entries, appended as
/// logbookd makes them): completed with the price from the page's form (a `fuel.add` with
/// `pending`, the estimates filled in), dismissed, refused on the page when the price is
/// missing or the fill-up no longer waits. A real journal and index, no logbookd (the
/// journal-lock path, as the web's other writes without a daemon).
@Suite(.serialized) struct PendingFillPageTests {
    @Test(.timeLimit(.minutes(2)))
    func theGarageCompletesAndDismissesPendingFillUps() async throws {
        let dir = try TemporaryDirectory("wpf")
        defer { dir.remove() }
        let state = dir.file("state")
        let trips = try await CorrectionFixture.write(state)
        let after = trips[2].end
        func later(_ hours: Double) -> GPSTime { GPSTime(nanoseconds: after.nanoseconds + Int64(hours * 3600e9)) }
        let first = PendingFillRecord(vehicle: "golf", at: later(2), litresEstimated: 27.5, latitude: 48.137, longitude: 11.575,
                                      levelBefore: 20, levelAfter: 75, source: "elm")
        let second = PendingFillRecord(vehicle: "golf", at: later(5), litresEstimated: 8, levelBefore: 60, levelAfter: 76, source: "elm")
        let ids = [first, second].map { FuelRecord.subject(vehicle: "golf", at: $0.at) }
        _ = try await EntryAppender.append(
            [
                FuelRecord(vehicle: "golf", at: later(1), odometerKm: 80_000, litres: 30, price: 51, currency: "CHF")
                    .entry(subject: FuelRecord.subject(vehicle: "golf", at: later(1)), origin: "cli"),
                first.entry(subject: ids[0], origin: "obd"), second.entry(subject: ids[1], origin: "obd"),
            ], recordedAt: later(6), journalDirectory: state + "/journal", stateDirectory: state)

        try await WebHarness.run(WebHarness.configuration(dir)) { _, client in
            let web = try await WebSession.open(client)
            let garage = try await web.get("/garage")
            #expect(garage.status == 200 && garage.text.contains("<h2>Pending fill-ups</h2>"), "\(garage)")
            #expect(garage.text.contains("<li data-id=\"\(ids[0])\">") && garage.text.contains("<li data-id=\"\(ids[1])\">"))
            #expect(garage.text.contains("value=\"27.5\"") && garage.text.contains("20 → 75 %"))

            // No price: refused on the page, nothing written.
            let before = CorrectionFixture.journalBytes(state)
            let noPrice = try await web.form("/garage/fuel/pending/\(ids[0])/complete", [("price", ""), ("litres", "27.5")])
            #expect(noPrice.status == 400 && noPrice.text.contains("Paid") && CorrectionFixture.journalBytes(state) == before, "\(noPrice.status)")

            let done = try await web.form("/garage/fuel/pending/\(ids[0])/complete", [("price", "48.40"), ("litres", "27.5"), ("currency", ""), ("odometer_km", "")])
            #expect(done.status == 303 && done.header("Location") == "/garage?done=pending-completed", "\(done)")
            let fills = try await web.get("/api/fuel?vehicle=golf")
            let fill = fills.json?["fuel_logs"]?.items?.first { $0["pending"] == .string(ids[0]) }
            #expect(fill?["price"] == .number(48.4) && fill?["litres"] == .number(27.5) && fill?["currency"] == .string("CHF"), "\(fills)")
            #expect(fill?["odometer_km"] == .number(80_000) && fill?["lat"] == .number(48.137) && fill?["at"] == .string(ISO8601.format(later(2))))
            let page = try await web.get("/garage?done=pending-completed")
            #expect(page.text.contains("Fill-up logged.") && !page.text.contains("<li data-id=\"\(ids[0])\">"))

            // Completed already: 404 on the page.
            let again = try await web.form("/garage/fuel/pending/\(ids[0])/complete", [("price", "1")])
            #expect(again.status == 404, "\(again.status)")

            let dismissed = try await web.form("/garage/fuel/pending/\(ids[1])/dismiss", [("reason", "sensor jump")])
            #expect(dismissed.status == 303 && dismissed.header("Location") == "/garage?done=pending-dismissed", "\(dismissed)")
            let empty = try await web.get("/garage?done=pending-dismissed")
            #expect(empty.text.contains("Pending fill-up dismissed.") && !empty.text.contains("<h2>Pending fill-ups</h2>"))
            #expect(try await web.form("/garage/fuel/pending/\(ids[1])/dismiss", []).status == 404)
        }
    }
}
