// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookRecords
import LogbookTestSupport
import Testing

@testable import LogbookWeb

/// Every garage write the CLI makes, through the JSON API, over a real journal and index
/// without logbookd (the journal-lock path): vehicles with every field, a mistyped odometer
/// reading that blocks a fill-up until it is voided, fill-ups amended and voided, service
/// tasks, named places — and each refusal a 4xx with the CLI's message and nothing written.
@Suite(.serialized) struct WebGarageWriteTests {
    @Test(.timeLimit(.minutes(2)))
    func everyGarageWriteThroughTheAPI() async throws {
        let dir = try TemporaryDirectory("wgw")
        defer { dir.remove() }
        let state = dir.file("state")
        _ = try await CorrectionFixture.write(state)
        try await WebHarness.run(WebHarness.configuration(dir)) { _, client in
            let web = try await WebSession.open(client)
            var writes = 0, refusals = 0
            func ok(_ path: String, _ body: String, method: String = "POST") async throws -> JSONValue {
                let r = try await web.call(path, body, method: method)
                #expect(r.status == 200 && r.json?["ok"] == .bool(true), "\(method) \(path) \(body): \(r)")
                writes += 1
                return r.json ?? .null
            }
            func refused(_ path: String, _ body: String, _ status: Int, _ code: String, _ message: String, method: String = "POST") async throws {
                let before = CorrectionFixture.journalBytes(state)
                let r = try await web.call(path, body, method: method)
                #expect(r.status == status && WebSession.code(r) == code && WebSession.message(r) == message, "\(method) \(path): \(r)")
                #expect(CorrectionFixture.journalBytes(state) == before, "\(path) wrote to the journal")
                refusals += 1
            }

            // Vehicles: every field, then an edit of one.
            let passat = #"{"vehicle":"passat","name":"Passat","make":"VW","model":"Passat Variant","year":2018,"registration":"M-PA 1","fuel_type":"diesel","tank_l":66,"initial_odometer_km":50000,"vin":"WVWZZZ3CZJE123456","driver":"Ben"}"#
            _ = try await ok("/api/vehicles", passat)
            try await refused("/api/vehicles", passat, 409, "duplicate", "vehicle passat exists already (use vehicles edit)")
            try await refused("/api/vehicles", #"{"vehicle":"other","registration":"m-pa 1"}"#, 409, "duplicate", "registration m-pa 1 belongs to vehicle passat")
            try await refused("/api/vehicles/passat", "{}", 400, "bad_request", "vehicle.amend needs at least one field to change", method: "PATCH")
            try await refused("/api/vehicles/nope", #"{"driver":"X"}"#, 404, "unknown_vehicle", "no vehicle \"nope\" (known: golf, polo, passat)", method: "PATCH")
            _ = try await ok("/api/vehicles/passat", #"{"driver":"Carla"}"#, method: "PATCH")
            let garage = try await web.get("/api/garage")
            let stored = garage.json?["vehicles"]?.items?.first { $0["id"] == .string("passat") }
            #expect(stored?["vin"] == .string("WVWZZZ3CZJE123456") && stored?["driver"] == .string("Carla") && stored?["tank_l"] == .number(66), "\(garage)")

            // A mistyped reading blocks the next fill-up until it is voided.
            _ = try await ok("/api/odometer", #"{"vehicle":"passat","at":"2026-03-01T08:00:00Z","odometer_km":600000,"note":"typo"}"#)
            let fill = #"{"vehicle":"passat","at":"2026-03-05T08:00:00Z","odometer_km":60000,"litres":40,"price":70,"currency":"eur","missed":true,"station":"Aral","note":"after the holidays","lat":48.17,"lon":11.56}"#
            try await refused(
                "/api/fuel", fill, 422, "odometer_backwards",
                "odometer going backwards: 60000 km at 2026-03-05T08:00:00Z, but 600000 km at 2026-03-01T08:00:00Z (reading passat@20260301T080000Z)")
            _ = try await ok("/api/odometer/passat@20260301T080000Z", #"{"odometer_km":65000}"#, method: "PATCH")
            try await refused(
                "/api/fuel", fill, 422, "odometer_backwards",
                "odometer going backwards: 60000 km at 2026-03-05T08:00:00Z, but 65000 km at 2026-03-01T08:00:00Z (reading passat@20260301T080000Z)")
            _ = try await ok("/api/odometer/passat@20260301T080000Z/void", #"{"reason":"typo"}"#)
            let readings = try await web.get("/api/odometer?vehicle=passat")
            let reading = readings.json?["readings"]?.items?.first
            #expect(reading?["voided"] == .bool(true) && reading?["changes"] == .number(3) && reading?["origin"] == .string("web"), "\(readings)")
            let added = try await ok("/api/fuel", fill)
            let id = try #require(added["subject"]?.stringValue)
            #expect(id == "passat@20260305T080000Z")
            let logs = try await web.get("/api/fuel?vehicle=passat")
            let log = logs.json?["fuel_logs"]?.items?.first
            #expect(log?["missed"] == .bool(true) && log?["station"] == .string("Aral") && log?["lat"] == .number(48.17) && log?["currency"] == .string("EUR"), "\(logs)")
            _ = try await ok("/api/fuel/\(id)", #"{"litres":41.5}"#, method: "PATCH")
            #expect(try await web.get("/api/fuel?vehicle=passat").json?["fuel_logs"]?.items?.first?["litres"] == .number(41.5))
            _ = try await ok("/api/fuel/\(id)/void", #"{"reason":"double entry"}"#)
            #expect(try await web.get("/api/fuel?vehicle=passat").json?["fuel_logs"]?.items?.isEmpty == true)
            try await refused("/api/fuel/\(id)", #"{"litres":1}"#, 404, "unknown_entry", "fuel log \(id) is void", method: "PATCH")
            try await refused("/api/fuel/passat@20990101T000000Z/void", "{}", 404, "unknown_entry", "no fuel log passat@20990101T000000Z")

            // Service tasks.
            try await refused(
                "/api/service", #"{"task":"x","vehicle":"passat","name":"X"}"#, 400, "bad_request", "a service task needs every_km and/or every_months")
            _ = try await ok("/api/service", #"{"task":"passat-oil","vehicle":"passat","name":"Oil change","every_km":15000,"last_done_km":50000}"#)
            _ = try await ok("/api/service/passat-oil/done", #"{"odometer_km":60000,"note":"5W-30"}"#)
            let due = try await web.get("/api/garage")
            #expect(due.json?["service"]?.items?.first { $0["task"] == .string("passat-oil") }?["due_km"] == .number(75000), "\(due)")
            _ = try await ok("/api/service/passat-oil/remove", #"{"reason":"sold the car"}"#)
            try await refused("/api/service/passat-oil/done", "{}", 404, "unknown_entry", "no service task passat-oil")

            // Named places.
            _ = try await ok("/api/places", #"{"place":"home","name":"Home","lat":48.17,"lon":11.56}"#)
            try await refused("/api/places", #"{"place":"home","lat":1,"lon":2}"#, 409, "duplicate", "place home exists already (use places edit)")
            _ = try await ok("/api/places/home", #"{"radius_m":250}"#, method: "PATCH")
            let places = try await web.get("/api/places")
            #expect(places.json?["places"]?.items?.first?["radius_m"] == .number(250) && places.json?["places"]?.items?.first?["name"] == .string("Home"))
            _ = try await ok("/api/places/home/remove", "{}")
            #expect(try await web.get("/api/places").json?["places"]?.items?.isEmpty == true)
            try await refused("/api/places/home", #"{"radius_m":300}"#, 404, "unknown_entry", "no place home (see places list)", method: "PATCH")
            print("web-writes: garage: ok \(writes) vehicle, odometer, fuel, service and place writes through the API; \(refusals) refusals with the CLI's message, nothing written")
        }
    }
}
