// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookTestSupport
import Testing

@testable import LogbookWeb

/// The fill-up form reads numbers as `logbook fuel add` reads them (one table, one parser):
/// a decimal comma where unambiguous, refusals on the page naming the field.
@Suite(.serialized) struct NumberFormTests {
    @Test(.timeLimit(.minutes(2)))
    func theFuelFormTakesWhatTheCLITakes() async throws {
        let dir = try TemporaryDirectory("wnum")
        defer { dir.remove() }
        _ = try await CorrectionFixture.write(dir.file("state"))
        try await WebHarness.run(WebHarness.configuration(dir)) { app, client in
            let web = try await WebSession.open(client)
            var odometer = 60_000
            var accepted = 0, refused = 0
            for (typed, litres) in NumberInputCases.litres {
                odometer += 500
                let day = (odometer - 60_000) / 500  // each fill-up its own time: its id
                let reply = try await web.form("/garage/fuel", [
                    ("vehicle", "golf"), ("at", "2026-03-\(day < 10 ? "0" : "")\(day)T09:30"), ("odometer_km", "\(odometer)"), ("litres", typed), ("price", "80,15"),
                    ("currency", "EUR"), ("full", "on"),
                ])
                if let litres {
                    #expect(reply.status == 303, "\(typed): \(reply)")
                    let logs = try await web.get("/api/fuel?vehicle=golf").json?["fuel_logs"]?.items ?? []
                    let log = logs.first { $0["odometer_km"] == .number(Double(odometer)) }
                    #expect(log?["litres"] == .number(litres) && log?["price"] == .number(80.15), "\(typed): \(String(describing: log))")
                    accepted += 1
                } else {
                    #expect(reply.status == 400 && reply.text.contains("is not a number"), "\(typed): \(reply)")
                    refused += 1
                }
            }
            print("number-input: web: \(accepted) accepted (decimal point or comma), \(refused) refused on the page")
        }
    }
}
