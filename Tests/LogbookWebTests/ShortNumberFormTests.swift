// SPDX-License-Identifier: MIT
import Foundation
import LogbookConfig
import LogbookCore
import LogbookTestSupport
import Testing

@testable import LogbookWeb

/// Issue 23 part 4 in the web app, from the CLI's tables: imperial forms (miles, US gallons)
/// journal km and litres; fill-ups and readings have `/garage/fuel/N` pages, the old ids still
/// work, an unknown number is 404; an empty currency is `[units] currency`, else the last
/// fill-up's.
@Suite(.serialized) struct ShortNumberFormTests {
    static func fuelLogs(_ web: WebSession) async throws -> [JSONValue] {
        try await web.get("/api/fuel?vehicle=golf").json?["fuel_logs"]?.items ?? []
    }

    @Test(.timeLimit(.minutes(2)))
    func imperialFormsShortNumbersAndTheLastCurrency() async throws {
        let dir = try TemporaryDirectory("wimp")
        defer { dir.remove() }
        _ = try await CorrectionFixture.write(dir.file("state"))
        var config = WebHarness.configuration(dir)
        config.imperialUnits = true
        try await WebHarness.run(config) { app, client in
            let web = try await WebSession.open(client)
            // No currency typed, none configured, no fill-up yet: refused on the page.
            let first = try await web.form("/garage/fuel", [
                ("vehicle", "golf"), ("at", "2026-03-01T09:30"), ("odometer_km", "10000"), ("litres", "10"), ("price", "40"), ("full", "on"),
            ])
            #expect(first.status == 400 && first.text.contains("Currency"), "\(first)")
            var converted = 0
            for (i, (gallons, miles)) in zip(UnitInputCases.gallons, UnitInputCases.miles).enumerated() {
                let reply = try await web.form("/garage/fuel", [
                    ("vehicle", "golf"), ("at", "2026-03-0\(i + 2)T09:30"), ("odometer_km", miles.typed), ("litres", gallons.typed),
                    ("price", "40"), ("currency", i == 0 ? "USD" : ""), ("full", "on"),
                ])
                #expect(reply.status == 303, "\(reply)")
                let log = try await Self.fuelLogs(web).first { $0["number"] == .number(Double(i + 1)) }
                #expect(log?["litres"] == .number(gallons.litres) && log?["odometer_km"] == .number(miles.km), "\(String(describing: log))")
                #expect(log?["currency"] == .string("USD"), "the last fill-up's currency: \(String(describing: log))")
                if log?["litres"] == .number(gallons.litres) { converted += 1 }
                if log?["odometer_km"] == .number(miles.km) { converted += 1 }
            }
            let garage = try await web.get("/garage")
            #expect(garage.text.contains("Odometer (miles)") && garage.text.contains("US gallons"), "labels say the units")
            for c in UnitInputCases.gallons { #expect(garage.text.contains(c.shown)) }
            #expect(garage.text.contains("href=\"/garage/fuel/2\"") && !garage.text.contains(" L<"), "numbers in links, no litres")
            let old = try #require(try await Self.fuelLogs(web).first { $0["number"] == .number(1) }?["id"]?.stringValue)
            var numbers = 0, oldIDs = 0, unknown = 0
            for (path, status, kind) in [
                ("/garage/fuel/1", 200, 0), ("/garage/fuel/%231", 200, 0), ("/garage/fuel/\(WebApp.pathEscaped(old))", 200, 1), ("/garage/fuel/99", 404, 2),
            ] {
                let reply = try await web.get(path)
                #expect(reply.status == status, "\(path): \(reply.status)")
                if reply.status == status { if kind == 0 { numbers += 1 } else if kind == 1 { oldIDs += 1 } else { unknown += 1 } }
            }
            // The amend form shows gallons and miles: leaving them as shown changes nothing.
            let page = try await web.get("/garage/fuel/2")
            #expect(page.text.contains("value=\"10.5\"") && page.text.contains("#2"), "the amend form in gallons")
            let amended = try await web.form("/garage/fuel/2", [("litres", "10.5"), ("odometer_km", "10250.5"), ("note", "kept")])
            #expect(amended.status == 303 && amended.header("Location") == "/garage/fuel/2?done=changed", "\(amended)")
            let two = try await Self.fuelLogs(web).first { $0["number"] == .number(2) }
            #expect(two?["litres"] == .number(39.747), "an unchanged gallon figure is not rewritten: \(String(describing: two))")
            let void = try await web.form("/garage/fuel/3/void", [("reason", "typo")])
            #expect(void.status == 303 && void.header("Location") == "/garage/fuel/3?done=voided", "\(void)")
            numbers += void.status == 303 ? 1 : 0
            let reading = try await web.form("/garage/odometer", [("vehicle", "golf"), ("at", "2026-03-09T09:30"), ("odometer_km", "10700")])
            #expect(reading.status == 303, "\(reading)")
            let readings = try await web.get("/api/odometer").json?["readings"]?.items ?? []
            #expect(readings.contains { $0["odometer_km"] == .number(17_219.981) }, "\(readings)")
            if readings.contains(where: { $0["odometer_km"] == .number(17_219.981) }) { converted += 1 }
            let readingPage = try await web.get("/garage/odometer/1")
            #expect(readingPage.status == 200 && readingPage.text.contains("10700 mi"), "\(readingPage.status)")
            #expect(try await web.get("/garage/odometer/7").status == 404)
            let dashboard = try await web.get("/dashboard")
            #expect(dashboard.status == 200 && dashboard.text.contains(" gal<") && !dashboard.text.contains(" L<"), "gallons beside mpg")
            #expect(dashboard.text.contains("Per gallon") && !dashboard.text.contains("L/100") && !dashboard.text.contains("/L<"), "prices per gallon")
            let van = try await web.form("/garage/vehicles", [("vehicle", "van"), ("name", "Van"), ("tank_l", "15"), ("initial_odometer_km", "1000")])
            #expect(van.status == 303, "\(van)")
            let vehicle = try await web.get("/api/garage").json?["vehicles"]?.items?.first { $0["id"] == .string("van") }
            #expect(vehicle?["tank_l"] == .number(56.781) && vehicle?["initial_odometer_km"] == .number(1_609.344), "\(String(describing: vehicle))")
            if vehicle?["tank_l"] == .number(56.781) { converted += 1 }
            if vehicle?["initial_odometer_km"] == .number(1_609.344) { converted += 1 }
            print("number-ids: web: \(numbers) short numbers accepted, \(oldIDs) old ids accepted, \(unknown) unknown refused")
            print("units-input: web imperial: \(converted) inputs converted")
            _ = app
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func theConfiguredCurrencyComesBeforeTheLastFillUp() async throws {
        let dir = try TemporaryDirectory("wcur")
        defer { dir.remove() }
        _ = try await CorrectionFixture.write(dir.file("state"))
        var config = WebHarness.configuration(dir)
        config.currency = "CHF"
        try await WebHarness.run(config) { _, client in
            let web = try await WebSession.open(client)
            for (day, typed, expected) in [(1, "EUR", "EUR"), (2, "", "CHF")] {
                let reply = try await web.form("/garage/fuel", [
                    ("vehicle", "golf"), ("at", "2026-04-0\(day)T09:30"), ("odometer_km", "\(70_000 + day * 400)"), ("litres", "40"),
                    ("price", "70"), ("currency", typed), ("full", "on"),
                ])
                #expect(reply.status == 303, "\(reply)")
                let log = try await Self.fuelLogs(web).first { $0["odometer_km"] == .number(Double(70_000 + day * 400)) }
                #expect(log?["currency"] == .string(expected), "\(String(describing: log))")
            }
            #expect(try await web.get("/garage").text.contains("value=\"CHF\""), "the form starts from [units] currency")
        }
    }

    @Test func unitsCurrencyIsCheckedAndUpperCased() throws {
        let dir = try TemporaryDirectory("wcurc")
        defer { dir.remove() }
        let file = dir.file("logbookd.toml")
        for (value, want) in [("chf", "CHF"), ("USD", "USD"), ("euro", nil), ("E1R", nil)] {
            try "[units]\ncurrency = \"\(value)\"\n".write(toFile: file, atomically: true, encoding: .utf8)
            do {
                let c = try WebConfiguration.load(file: file, environment: [:])
                #expect(c.currency == want, "\(value)")
            } catch {
                #expect(want == nil && error.key == "units.currency", "\(value): \(error)")
            }
        }
    }
}
