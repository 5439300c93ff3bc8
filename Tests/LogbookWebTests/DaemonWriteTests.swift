// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import LogbookRecords
import LogbookTestSupport
import Testing

@testable import LogbookWeb

/// Web writes while a real logbookd records a gpsd replay: they go through the control socket
/// (the daemon holds the journal's lock, so nothing else could have written them), the
/// daemon's registry takes a vehicle the web added at once, and the web's pages show the
/// car's last position from the live state.
@Suite(.serialized) struct DaemonWriteTests {
    @Test(.timeLimit(.minutes(3)))
    func writesGoThroughLogbookdAndItsRegistry() async throws {
        let dir = try TemporaryDirectory("wdw")
        defer { dir.remove() }
        let daemon = try await DaemonUnderTest(dir)
        try await WebHarness.run(WebHarness.configuration(dir)) { app, client in
            let web = try await WebSession.open(client)
            let added = try await web.call("/api/vehicles", #"{"vehicle":"passat","name":"Passat","driver":"Ben"}"#)
            #expect(added.status == 200 && (added.json?["seq"]?.doubleValue ?? 0) > 0 && added.json?["subject"] == .string("passat"), "\(added)")
            // logbookd knows it at once: a trip starts with it.
            let started = try await web.call("/api/trip/start", #"{"vehicle":"passat"}"#)
            #expect(started.status == 200, "\(started)")
            #expect(
                try await eventually(.seconds(30)) {
                    let doc = try await web.get("/api/live").json
                    return doc?["trip"]?["vehicle"]?["id"] == .string("passat") && doc?["gps"]?["lat"]?.doubleValue != nil
                }, "the trip with the web's vehicle never showed in the live state")
            // The car's last position, offered by the forms that take one.
            let car = try #require(app.knownCarPosition())
            let places = try await web.get("/garage/places")
            #expect(places.text.contains("id=\"place-add-car\""), "\(places)")
            let home = try await web.form("/garage/places", [("place", "here"), ("radius_m", "100"), ("car_position", "on")])
            #expect(home.status == 303, "\(home)")
            let stored = try await web.get("/api/places").json?["places"]?.items?.first
            #expect(abs((stored?["lat"]?.doubleValue ?? 0) - car.lat) < 0.01 && abs((stored?["lon"]?.doubleValue ?? 0) - car.lon) < 0.01, "\(String(describing: stored))")
            // Refusals are answered before the daemon sees them.
            let unknown = try await web.call("/api/trips/99/void", #"{"reason":"x"}"#)
            #expect(unknown.status == 404 && WebSession.code(unknown) == "unknown_trip", "\(unknown)")
            let stopped = try await web.call("/api/trip/stop", "{}")
            #expect(stopped.status == 200, "\(stopped)")
            // Corrections of the trip just stopped, through the socket (trip numbers as numbers).
            let trip = try #require(stopped.json?["trip"]?["id"]?.stringValue)
            for (path, body) in [("class", #"{"class":"business","purpose":"Test"}"#), ("assign", #"{"driver":"Ben"}"#), ("void", #"{"reason":"test drive"}"#)] {
                let r = try await web.call("/api/trips/\(trip)/\(path)", body)
                #expect(r.status == 200 && (r.json?["seq"]?.doubleValue ?? 0) > 0, "\(path): \(r)")
            }
            let corrected = try await web.get("/api/trips/\(trip)")
            #expect(corrected.json?["voided"] == .bool(true) && corrected.json?["driver"] == .string("Ben"), "\(corrected)")
        }
        await daemon.stop()
        let reader = try JournalReader(directory: dir.file("state/journal"))
        #expect(try reader.trips().first?.vehicleID == "passat")
        var origins: [String: String] = [:]
        for entry in try reader.entries() {
            if case .entry(let e) = entry.record { origins[e.type + " " + e.subject] = e.origin }
        }
        #expect(origins["vehicle passat"] == "web" && origins["place here"] == "web", "\(origins)")
        print(
            "web-writes: daemon: ok vehicle added through logbookd's control socket (origin web), a trip started with it at once, "
                + "a place saved at the car's last position, the trip classified, assigned and voided through the socket")
    }
}
