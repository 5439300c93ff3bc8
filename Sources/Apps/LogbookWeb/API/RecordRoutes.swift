// SPDX-License-Identifier: MIT
internal import Hummingbird
internal import LogbookCore
internal import LogbookGarage
internal import LogbookRecords
internal import LogbookStore

extension WebApp {
    /// The reads beside the writes: odometer readings, named places and a trip's history,
    /// with the names and values of `logbook odometer list --json`, `logbook places list
    /// --json` and `logbook trips show ID --history --json`.
    func addRecordRoutes(to router: Router<WebContext>) {
        router.get("/api/odometer") { request, _ -> Response in
            let vehicle = Self.nonEmpty(request.uri.queryParameters, "vehicle")
            let garage = try await self.garage()
            if let vehicle, garage.vehicle(vehicle) == nil { throw APIError(.notFound, "unknown_vehicle", "no vehicle \"\(vehicle)\"") }
            let readings = garage.readings.filter { vehicle == nil || $0.vehicle == vehicle }.sorted { $0.at > $1.at }
            return Responses.json(.object([("readings", .array(readings.map(Self.readingJSON)))]))
        }
        router.get("/api/places") { _, _ -> Response in
            let places = try await self.places().active.sorted { $0.id < $1.id }
            return Responses.json(.object([("places", .array(places.map(Self.placeJSON)))]))
        }
        router.get("/api/trips/:id/history") { _, context -> Response in
            let id = try Self.tripID(context.parameters.get("id"))
            let history = try await shelf.read { index throws -> [RecordedEntry] in
                guard try index.trip(id) != nil || index.mergedInto(id) != nil else { throw APIError(.notFound, "unknown_trip", "no trip \(id)") }
                return try index.history(of: id)
            }
            return Responses.json(.object([("id", .string(id.description)), ("history", .array(history.map(Self.changeJSON)))]))
        }
    }

    /// A reading as `logbook odometer list --json` prints it.
    static func readingJSON(_ r: OdometerReading) -> JSONValue {
        var m: [(String, JSONValue)] = [("id", .string(r.id)), ("number", .integer(r.number))]
        if case .object(let fields) = r.record.fields { m += fields }
        m += [("voided", .bool(r.voided)), ("origin", .string(r.origin)), ("changes", .integer(r.history.count))]
        return .object(m)
    }

    /// A place as `logbook places list --json` prints it.
    static func placeJSON(_ p: Folded<PlaceRecord>) -> JSONValue {
        .object([
            ("id", .string(p.id)), ("name", .string(p.record.name ?? p.id)), ("lat", .number(p.record.latitude)),
            ("lon", .number(p.record.longitude)), ("radius_m", .number(p.record.radius)),
        ])
    }

    /// One change, as `logbook trips show ID --history --json` lists it.
    static func changeJSON(_ c: RecordedEntry) -> JSONValue {
        .object([
            ("seq", .number(Double(c.sequence))), ("recorded_at", .string(c.recordedAt.map(ISO8601.format))),
            ("type", .string(c.entry.type)), ("action", .string(c.entry.action.rawValue)), ("origin", .string(c.entry.origin)),
            ("fields", c.entry.fields), ("change", .string(c.entry.summary)),
        ])
    }
}
