// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookTestSupport
import Testing

@testable import LogbookWeb

/// Trip corrections through the JSON API over the real index of a real journal (four trips
/// of the Munich drive), with no logbookd: every write goes the CLI's way without a daemon,
/// under the journal's lock. Each refusal is a 4xx with a JSON error naming the problem — the
/// message `logbook` prints — and leaves the journal's bytes as they were.
@Suite(.serialized) struct CorrectionServerTests {
    @Test(.timeLimit(.minutes(2)))
    func everyCorrectionAndEveryRefusal() async throws {
        let dir = try TemporaryDirectory("wcx")
        defer { dir.remove() }
        let state = dir.file("state")
        let trips = try await CorrectionFixture.write(state)
        try await WebHarness.run(WebHarness.configuration(dir)) { _, client in
            let web = try await WebSession.open(client)
            let vehicles = try await web.get("/api/vehicles")
            #expect(vehicles.json?["vehicles"]?.items?.compactMap { $0["id"]?.stringValue } == ["golf", "polo"], "\(vehicles)")

            // Refusals: 4xx, the CLI's message, nothing written.
            var refusals = 0
            func refused(_ path: String, _ body: String, _ status: Int, _ code: String, _ message: String? = nil) async throws {
                let before = CorrectionFixture.journalBytes(state)
                let r = try await web.call(path, body)
                #expect(r.status == status && WebSession.code(r) == code, "\(path) \(body): \(r)")
                if let message { #expect(WebSession.message(r) == message, "\(path): \(r)") }
                #expect(CorrectionFixture.journalBytes(state) == before, "\(path) wrote to the journal")
                refusals += 1
            }
            let late = ISO8601.format(trips[1].start)
            try await refused("/api/trips/99/void", #"{"reason":"test drive"}"#, 404, "unknown_trip", "no trip 99")
            try await refused("/api/trips/1/void", "{}", 400, "bad_request")
            try await refused("/api/trips/1/assign", #"{"vehicle":"nope"}"#, 404, "unknown_vehicle", "no vehicle \"nope\" (known: golf, polo)")
            try await refused("/api/trips/3/merge", #"{"with":4}"#, 422, "not_consecutive", "trips 3 and 4 belong to different vehicles (golf, polo)")
            try await refused(
                "/api/trips/1/merge", #"{"with":3}"#, 422, "not_consecutive",
                "trips 1 and 3 are not consecutive (the next trip of golf after 1 is 2)")
            try await refused(
                "/api/trips/1/split", #"{"at":"\#(late)"}"#, 422, "outside_trip",
                "\(late) is not inside trip 1 (\(ISO8601.format(trips[0].start)) to \(ISO8601.format(trips[0].end)))")
            try await refused("/api/trips/1/restore", "{}", 409, "not_voided", "trip 1 is not void")
            try await refused("/api/trips/1/split", #"{"at":"\#(late)","new_trip":9}"#, 400, "bad_request")

            // Void, and a void of a void trip; restore.
            var writes = 0
            func ok(_ path: String, _ body: String, method: String = "POST") async throws -> JSONValue {
                let r = try await web.call(path, body, method: method)
                #expect(r.status == 200 && r.json?["ok"] == .bool(true), "\(path) \(body): \(r)")
                writes += 1
                return r.json ?? .null
            }
            _ = try await ok("/api/trips/2/void", #"{"reason":"test drive"}"#)
            let voided = try await web.get("/api/trips/2")
            #expect(voided.json?["voided"] == .bool(true) && voided.json?["void_reason"] == .string("test drive"), "\(voided)")
            let list = try await web.get("/api/trips")
            #expect(list.json?["totals"]?["trips"] == .number(3) && list.json?["totals"]?["voided"] == .number(1), "\(list)")
            let without = try await web.get("/api/trips?include_voided=false")
            #expect(without.json?["trips"]?.items?.compactMap { $0["id"]?.stringValue } == ["4", "3", "1"], "\(without)")
            try await refused("/api/trips/2/void", #"{"reason":"again"}"#, 409, "voided", "trip 2 is void already")
            _ = try await ok("/api/trips/2/restore", #"{"reason":"it was a real trip"}"#)
            #expect(try await web.get("/api/trips/2").json?["voided"] == .bool(false))

            // Assign a driver, another vehicle (a merge across vehicles is refused), back.
            _ = try await ok("/api/trips/1/assign", #"{"driver":"Anna"}"#)
            _ = try await ok("/api/trips/1/assign", #"{"vehicle":"polo"}"#)
            let assigned = try await web.get("/api/trips/1")
            #expect(assigned.json?["vehicle"]?["id"] == .string("polo") && assigned.json?["driver"] == .string("Anna"), "\(assigned)")
            try await refused("/api/trips/1/merge", #"{"with":2}"#, 422, "not_consecutive", "trips 1 and 2 belong to different vehicles (polo, golf)")
            _ = try await ok("/api/trips/1/assign", #"{"vehicle":"golf"}"#)

            // Split in the middle (a new number), then merge the parts back.
            let middle = GPSTime(nanoseconds: (trips[0].start.nanoseconds + trips[0].end.nanoseconds) / 2)
            let split = try await ok("/api/trips/1/split", #"{"at":"\#(ISO8601.format(middle))"}"#)
            let second = try #require(split["fields"]?["new_trip"]?.doubleValue.map { String(Int($0)) })
            #expect(second == "5", "\(split)")
            let first = try await web.get("/api/trips/1"), part = try await web.get("/api/trips/\(second)")
            let firstPoints = first.json?["points"]?.doubleValue ?? 0, secondPoints = part.json?["points"]?.doubleValue ?? 0
            #expect(part.json?["split_from"] == .string("1") && firstPoints + secondPoints == Double(trips[0].points), "\(first) \(part)")
            _ = try await ok("/api/trips/1/merge", #"{"with":\#(second)}"#)
            let merged = try await web.get("/api/trips/1")
            #expect(merged.json?["merged_from"] == .array([.string(second)]) && merged.json?["points"]?.doubleValue == Double(trips[0].points))
            let gone = try await web.get("/api/trips/\(second)")
            #expect(gone.status == 404 && WebSession.message(gone) == "trip \(second) was merged into trip 1", "\(gone)")

            // The history: every change, from the web.
            let history = try await web.get("/api/trips/1/history")
            let changes = history.json?["history"]?.items ?? []
            #expect(changes.compactMap { $0["change"]?.stringValue } == [
                "assigned driver Anna", "assigned to vehicle polo", "assigned to vehicle golf",
                "split at \(ISO8601.format(middle)) into trips 1 and \(second)", "trip \(second) merged into trip 1",
            ], "\(history)")
            #expect(changes.allSatisfy { $0["origin"] == .string("web") })

            // A retired vehicle is no longer offered, nor taken.
            _ = try await ok("/api/vehicles/polo/retire", #"{"reason":"sold"}"#)
            let offered = try await web.get("/api/vehicles")
            #expect(offered.json?["vehicles"]?.items?.compactMap { $0["id"]?.stringValue } == ["golf"], "\(offered)")
            try await refused("/api/trips/1/assign", #"{"vehicle":"polo"}"#, 422, "retired_vehicle", "vehicle polo is retired")
            try await refused(
                "/api/fuel", #"{"vehicle":"polo","odometer_km":100,"litres":10,"price":20,"currency":"EUR"}"#, 422, "retired_vehicle",
                "vehicle polo is retired")
            print(
                "web-writes: corrections: ok \(writes) writes through the journal lock (no logbookd), \(refusals) refusals 4xx with the CLI's message and nothing written; "
                    + "trip 1 split into 1 + \(second) (\(Int(firstPoints)) + \(Int(secondPoints)) points) and merged back (\(trips[0].points))")
        }
    }
}
