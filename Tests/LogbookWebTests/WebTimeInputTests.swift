// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookStore
import LogbookTestSupport
import Testing

@testable import LogbookWeb

/// The web forms read times as the CLI's options do (one parser, ``LocalTimeInput``): a date,
/// a local time (what `datetime-local` sends) or ISO 8601 with Z or an offset; a refusal
/// names the field. And a fill-up sent twice is refused with a way to log it anyway.
@Suite(.serialized) struct WebTimeInputTests {
    static let cases: [(typed: String, exactUTC: String?, accepted: Bool)] = [
        ("2029-11-10", nil, true), ("2029-11-10T08:00", nil, true), ("2029-11-10 08:00", nil, true), ("2029-11-10T08:00:30", nil, true),
        ("2029-11-10T08:00+01:00", "2029-11-10T07:00:00Z", true), ("2029-11-10T08:00:00-05:00", "2029-11-10T13:00:00Z", true),
        ("2029-11-10T07:00Z", "2029-11-10T07:00:00Z", true), ("2029-11-10T08:00+0100", "2029-11-10T07:00:00Z", true),
        ("2029-02-30", nil, false), ("2029-11-10T24:00", nil, false), ("10.11.2029", nil, false), ("yesterday", nil, false),
    ]

    @Test func formTimesAreReadAsTheCLIReadsThem() throws {
        var accepted = 0, refused = 0
        for (typed, exact, ok) in Self.cases {
            let form = FormFields(Array("vehicle=golf&at=\(typed.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")&odometer_km=1&litres=1&price=1&currency=EUR".utf8))
            do {
                let fields = try FuelForms.add.request(form)
                let at = fields.first { $0.0 == "at" }?.1.stringValue
                let expected = try exact ?? ISO8601.format(LocalTimeInput.parse(typed, zone: LocalTime.zone))
                #expect(ok && at == expected, "\(typed): \(at ?? "none")")
                accepted += 1
            } catch let error as APIError {
                // The field's label, then the core parser's reason.
                #expect(!ok && error.message.hasPrefix("When") && (error.message.contains("expected") || error.message.contains("no such")), "\(typed): \(error.message)")
                refused += 1
            }
        }
        #expect(accepted == Self.cases.filter(\.accepted).count)
        print("time-input: web: \(accepted) accepted, \(refused) refused")
    }

    @Test(.timeLimit(.minutes(2)))
    func aFillUpSentTwiceIsRefusedWithAWayToLogItAnyway() async throws {
        let dir = try TemporaryDirectory("wdup")
        defer { dir.remove() }
        _ = try await CorrectionFixture.write(dir.file("state"))
        try await WebHarness.run(WebHarness.configuration(dir)) { app, client in
            let web = try await WebSession.open(client)
            let added = try await web.form("/garage/vehicles", [("vehicle", "passat"), ("name", "Passat")])
            #expect(added.status == 303, "\(added)")
            let fill = [("vehicle", "passat"), ("odometer_km", "60000"), ("litres", "40,5"), ("price", "70"), ("currency", "EUR")]
            let first = try await web.form("/garage/fuel", fill + [("at", "2029-11-10T08:00")])
            #expect(first.status == 303, "\(first)")
            let again = try await web.form("/garage/fuel", fill + [("at", "2029-11-10T08:05")])
            #expect(again.status == 409 && again.text.contains("same vehicle, odometer and litres") && again.text.contains("name=\"force\""), "\(again)")
            let forced = try await web.form("/garage/fuel", fill + [("at", "2029-11-10T08:05"), ("force", "on")])
            #expect(forced.status == 303, "\(forced)")
            let count = try await app.shelf.read { index in
                var n = 0
                try index.forEachEntry(type: "fuel") { _ in
                    n += 1
                    return true
                }
                return n
            }
            #expect(count == 2, "one fill-up and the forced one")
        }
    }
}
