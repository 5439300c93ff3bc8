// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import LogbookRecords
import LogbookStore
import LogbookTestSupport
import Testing

@testable import LogbookWeb

/// The pages' forms (plain HTML, no script): a write answers 303 back to its page, which says
/// what was done; a refusal comes back on the page with the CLI's message and what was typed;
/// an edit form sends only what changed; the trip page's history panel lists each change; the
/// vehicle pickers follow the registry in the journal without a restart.
@Suite(.serialized) struct FormWriteTests {
    @Test(.timeLimit(.minutes(2)))
    func formsWriteAndRefuseOnThePage() async throws {
        let dir = try TemporaryDirectory("wfw")
        defer { dir.remove() }
        let state = dir.file("state")
        let trips = try await CorrectionFixture.write(state)
        try await WebHarness.run(WebHarness.configuration(dir)) { app, client in
            let web = try await WebSession.open(client)
            // A vehicle with every field, from the form.
            let fields = [
                ("vehicle", "passat"), ("name", "Passat"), ("make", "VW"), ("model", "Passat"), ("year", "2018"), ("registration", "M-PA 1"),
                ("fuel_type", "diesel"), ("tank_l", "66"), ("initial_odometer_km", "50000"), ("vin", "wvwzzz3czje123456"), ("driver", "Ben"),
            ]
            let added = try await web.form("/garage/vehicles", fields)
            #expect(added.status == 303 && added.header("Location") == "/garage/vehicles/passat?done=added", "\(added)")
            let page = try await web.get("/garage/vehicles/passat?done=added")
            #expect(page.status == 200 && page.text.contains("Vehicle added.") && page.text.contains("value=\"WVWZZZ3CZJE123456\""), "\(page)")
            // Again: refused on the page, with the CLI's message and what was typed.
            let again = try await web.form("/garage/vehicles", fields)
            #expect(again.status == 409 && again.text.contains("vehicle passat exists already (use vehicles edit)"), "\(again)")
            #expect(again.text.contains("value=\"passat\"") && again.text.contains("value=\"Ben\""))
            // The edit form posts every value; only the driver changed, so only it is journaled.
            let edit = fields.dropFirst().map { $0.0 == "driver" ? ("driver", "Carla") : $0 }.map { ($0.0, $0.0 == "vin" ? $0.1.uppercased() : $0.1) }
            let edited = try await web.form("/garage/vehicles/passat", Array(edit))
            #expect(edited.status == 303, "\(edited)")
            let last = try await app.shelf.read { index in
                var fields: JSONValue = .null
                try index.forEachEntry(type: VehicleRecord.type, subject: "passat") { e in
                    fields = e.entry.fields
                    return true
                }
                return fields
            }
            #expect(last == .object([("driver", .string("Carla"))]), "\(last)")
            let history = try await web.get("/garage/vehicles/passat")
            #expect(history.text.contains("vehicle passat changed") && history.text.contains("<td>web</td>"), "\(history)")

            // A fill-up with its time typed in the Pi's zone, missed flag, note, position.
            let fill = try await web.form("/garage/fuel", [
                ("vehicle", "passat"), ("at", "2026-03-05T09:30"), ("odometer_km", "60000"), ("litres", "40,5"), ("price", "70"),
                ("currency", "eur"), ("station", "Aral"), ("full", "off"), ("full", "on"), ("missed", "off"), ("missed", "on"),
                ("note", "after the holidays"), ("lat", "48.17"), ("lon", "11.56"),
            ])
            #expect(fill.status == 303 && fill.header("Location") == "/garage?done=fuel", "\(fill)")
            let log = try await web.get("/api/fuel?vehicle=passat").json?["fuel_logs"]?.items?.first
            let at = try LocalTime.parse("2026-03-05T09:30")
            #expect(log?["at"] == .string(ISO8601.format(at)) && log?["litres"] == .number(40.5) && log?["missed"] == .bool(true), "\(String(describing: log))")

            // The trip page: a split outside the trip comes back with its message, then a void.
            let outside = try await web.form("/trips/1/split", [("at", "2001-01-01T00:00:00")])
            #expect(outside.status == 422 && outside.text.contains("is not inside trip 1") && outside.text.contains("value=\"2001-01-01T00:00:00\""), "\(outside)")
            let voided = try await web.form("/trips/1/void", [("reason", "test drive")])
            #expect(voided.status == 303 && voided.header("Location") == "/trips/1?done=voided", "\(voided)")
            let tripPage = try await web.get("/trips/1?done=voided")
            #expect(tripPage.text.contains("id=\"void-state\"") && tripPage.text.contains("<td>voided: test drive</td><td>web</td>"), "\(tripPage)")
            let twice = try await web.form("/trips/1/void", [("reason", "again")])
            #expect(twice.status == 409 && twice.text.contains("trip 1 is void already"), "\(twice)")
            let middle = GPSTime(nanoseconds: (trips[2].start.nanoseconds + trips[2].end.nanoseconds) / 2)
            let split = try await web.form("/trips/3/split", [("at", LocalTime.inputValue(middle, seconds: true))])
            #expect(split.status == 303 && split.header("Location") == "/trips/3?done=split&new=5", "\(split)")
            let list = try await web.get("/trips")
            #expect(list.text.contains(">void</span>") && list.text.contains("split from 3") && list.text.contains("(1 void not counted)"), "\(list)")
            print("web-writes: forms: ok vehicle add/edit (only the changed field journaled), fill-up with local time and flags, trip split and void from the page; refusals on the page with what was typed")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func pickersFollowTheRegistryInTheJournal() async throws {
        let dir = try TemporaryDirectory("wfr")
        defer { dir.remove() }
        let state = dir.file("state")
        _ = try await CorrectionFixture.write(state)
        try await WebHarness.run(WebHarness.configuration(dir)) { _, client in
            let web = try await WebSession.open(client)
            #expect(!(try await web.get("/").text.contains("value=\"touran\"")))
            // What `logbook vehicles add touran` does without a daemon, while the app runs.
            let touran = VehicleRecord(name: "Touran").entry(subject: "touran", origin: EntryOrigin.cli)
            _ = try await EntryAppender.append([touran], recordedAt: GPSTime(seconds: 2), journalDirectory: state + "/journal", stateDirectory: state)
            let seen = await eventually(.seconds(15)) {
                let ids = (try? await web.get("/api/vehicles"))?.json?["vehicles"]?.items?.compactMap { $0["id"]?.stringValue } ?? []
                return ids.contains("touran")
            }
            #expect(seen, "a vehicle added to the journal never reached /api/vehicles")
            #expect(try await web.get("/").text.contains("<option value=\"touran\">Touran</option>"))
            #expect(try await web.get("/garage").text.contains("<option value=\"touran\">Touran</option>"))
            #expect(try await web.get("/trips/1").text.contains("<option value=\"touran\">Touran</option>"))
            let retire = RecordEntry(type: VehicleRecord.type, action: .void, subject: "touran", fields: .object([]), origin: EntryOrigin.cli)
            _ = try await EntryAppender.append([retire], recordedAt: GPSTime(seconds: 3), journalDirectory: state + "/journal", stateDirectory: state)
            let gone = await eventually(.seconds(15)) {
                !((try? await web.get("/garage"))?.text.contains("<option value=\"touran\">") ?? true)
            }
            #expect(gone, "a retired vehicle is still offered")
            #expect(!(try await web.get("/").text.contains("value=\"touran\"")))
            print("web-registry: ok a vehicle added to the journal while logbook-web ran appeared in the Live, Garage and trip pickers; retired, it left them")
        }
    }
}
