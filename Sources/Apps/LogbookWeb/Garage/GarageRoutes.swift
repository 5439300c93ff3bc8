// SPDX-License-Identifier: MIT
internal import HTTPTypes
internal import Hummingbird
internal import LogbookCore
internal import LogbookGarage
internal import LogbookGarageStore
internal import LogbookPlaces
internal import LogbookRecords
internal import LogbookStore

extension WebApp {
    /// `/api/stats`, `/api/garage`, `/api/fuel` (list and add), a trip's classification and
    /// `/api/report`. Reads come from the index; writes are checked against the garage as the
    /// index holds it, then sent to logbookd, which records them (the CLI does the same).
    func addGarageRoutes(to router: Router<WebContext>) {
        router.get("/api/stats") { request, _ -> Response in
            let parameters = request.uri.queryParameters
            let range = try Self.statsRange(parameters["range"].map(String.init) ?? "all")
            let vehicle = Self.nonEmpty(parameters, "vehicle")
            let view = try await dashboard(range: range, vehicle: vehicle)
            guard case .object(let members) = view.stats.json else { return Responses.json(view.stats.json) }
            return Responses.json(.object(members + [("service", .array(view.service.map(\.json)))]))
        }
        router.get("/api/garage") { _, _ -> Response in
            let view = try await garageView(fuelLimit: 0)
            return Responses.json(
                .object([
                    ("vehicles", .array(view.vehicles.map(GarageJSON.vehicle))),
                    ("service", .array(view.service.map(\.json))),
                ]))
        }
        router.get("/api/fuel") { request, _ -> Response in
            let parameters = request.uri.queryParameters
            var limit = 50
            if let s = parameters["limit"] {
                guard let n = Int(s), (1...1000).contains(n) else { throw APIError.badRequest("limit: expected 1 to 1000, got \"\(s)\"") }
                limit = n
            }
            let vehicle = Self.nonEmpty(parameters, "vehicle")
            let view = try await garageView(fuelLimit: limit, vehicle: vehicle)
            return Responses.json(.object([("fuel_logs", .array(view.fills.map(GarageStats.fillJSON)))]))
        }
        router.post("/api/fuel") { request, context -> Response in
            var request = request
            let body = try await JSONBody.object(&request, context: context, allowed: Self.fuelFields)
            return Responses.json(try await garageWrite("fuel.add", Self.pairs(body)))
        }
        router.post("/api/trips/:id/class") { request, context -> Response in
            let id = try Self.tripID(context.parameters.get("id"))
            var request = request
            let body = try await JSONBody.object(&request, context: context, allowed: Self.classFields)
            let fields = [("trip", JSONValue.number(Double(id.rawValue)))] + Self.pairs(body)
            return Responses.json(try await garageWrite("trip.classify", fields))
        }
        router.get("/api/report") { request, _ -> Response in
            let parameters = request.uri.queryParameters
            let format = parameters["format"].map(String.init) ?? "csv"
            guard format == "csv" || format == "html" else { throw APIError.badRequest("format: expected csv or html, got \"\(format)\"") }
            let (report, _) = try await mileageReport(parameters)
            if format == "html" { return Self.printable(report) }
            var response = Responses.text(report.csv, contentType: "text/csv")
            let name = "mileage-\(report.year)\(report.vehicle.map { "-" + $0 } ?? "").csv"
            response.headers[.contentDisposition] = "attachment; filename=\"\(name)\""
            return response
        }
    }

    /// The request fields `POST /api/fuel` takes: `fuel.add`'s, without `origin` (always `web`).
    static let fuelFields = Set(FuelRecord.schema.map(\.name))
    /// The request fields `POST /api/trips/{id}/class` takes.
    static let classFields = Set(TripClassRecord.schema.map(\.name))

    /// A query parameter's value; nil when absent or empty (a form's "All vehicles").
    static func nonEmpty(_ parameters: Parameters, _ name: String) -> String? {
        parameters[Substring(name)].flatMap { $0.isEmpty ? nil : String($0) }
    }

    /// The members of a JSON object, in order.
    static func pairs(_ value: JSONValue) -> [(String, JSONValue)] {
        if case .object(let members) = value { members } else { [] }
    }

    /// `week`, `month`, `3months`, `year` or `all`, ending now.
    static func statsRange(_ name: String) throws(APIError) -> StatsRange {
        guard let range = StatsRange.named(name, now: GPSClock.now()) else {
            throw APIError.badRequest("range: expected one of \(StatsRange.names.joined(separator: ", ")), got \"\(name)\"")
        }
        return range
    }

    /// The report of `year` (default this year) for `vehicle` (default all), from the index,
    /// with the garage's vehicles it was made with (the Report page's picker).
    func mileageReport(_ parameters: Parameters) async throws(APIError) -> (MileageReport, [GarageVehicle]) {
        let text = parameters["year"].map(String.init)
        let year: Int
        if let text {
            guard let y = Int(text), (1980...2200).contains(y) else { throw APIError.badRequest("year: expected a year such as 2026, got \"\(text)\"") }
            year = y
        } else {
            year = Int(ISO8601.format(GPSClock.now()).prefix(4)) ?? 2026
        }
        let vehicle = Self.nonEmpty(parameters, "vehicle")
        let configured = configuration.vehicles
        let journal = configuration.journalDirectory
        let places = self.places
        return try await shelf.read { index throws -> (MileageReport, [GarageVehicle]) in
            let garage = try GarageStore.garage(index, configured: configured)
            if let vehicle, garage.vehicle(vehicle) == nil { throw APIError.notFound("no vehicle \"\(vehicle)\"") }
            let namer = PlaceNamer(namedPlaces: Array(try GarageStore.namedPlaces(index).values), bundle: places.bundle())
            let report = try GarageStore.report(index, garage: garage, year: year, vehicle: vehicle, namer: namer, journalDirectory: journal)
            return (report, garage.vehicles)
        }
    }

    /// The report's own A4 page: it carries its style inline and no script.
    static func printable(_ report: MileageReport) -> Response {
        var response = Responses.html(report.html)
        response.headers[.contentSecurityPolicy] = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"
        return response
    }

    /// Validates a garage write (shape, then against the garage in the index) and sends it to
    /// logbookd; returns the daemon's reply. The next read catches the index up at once.
    func garageWrite(_ name: String, _ fields: [(String, JSONValue)]) async throws(APIError) -> JSONValue {
        guard let command = EntryCommand.named(name) else { throw APIError.notFound("no command \(name)") }
        let now = GPSClock.now()
        var request: [(String, JSONValue)] = [("cmd", .string(name))] + fields.filter { !$0.1.isNull } + [("origin", .string("web"))]
        // The time is fixed here, so the check and the daemon see the same entry.
        if command.action == .add, command.type == "fuel", !request.contains(where: { $0.0 == "at" }) {
            request.append(("at", .string(ISO8601.format(now))))
        }
        let entry: RecordEntry
        do throws(EntryProblem) {
            entry = try command.draft(.object(request), now: now)
        } catch {
            throw Self.refusal(error)
        }
        let configured = configuration.vehicles
        try await shelf.read { index throws in
            let garage = try GarageStore.garage(index, configured: configured)
            do throws(EntryProblem) {
                try garage.check(entry, trips: index)
            } catch {
                throw Self.refusal(error)
            }
        }
        let reply = try await control.call(.object(request))
        shelf.invalidate()
        return reply
    }

    /// The HTTP error for a garage check's refusal: 400 for a malformed field, 409 for a
    /// duplicate, 404 for what does not exist, 422 for the rest (an odometer going back).
    static func refusal(_ problem: EntryProblem) -> APIError {
        switch problem.code {
        case "bad_request": APIError.badRequest(problem.message)
        case "duplicate": APIError(.conflict, problem.code, problem.message)
        case "unknown_entry": APIError(.notFound, problem.code, problem.message)
        default: ControlGateway.error(code: problem.code, message: problem.message)
        }
    }
}

/// The wall clock as a ``GPSTime`` (UTC nanoseconds since 1970, as the CLI stamps entries).
enum GPSClock {
    static func now() -> GPSTime { GPSTime(nanoseconds: Int64((WallClock.now() * 1e9).rounded())) }
}

/// Garage records as the API shows them.
enum GarageJSON {
    static func vehicle(_ v: GarageVehicle) -> JSONValue {
        var members: [(String, JSONValue)] = [("id", .string(v.id)), ("name", .string(v.name))]
        let stored = v.record.fields
        for field in VehicleRecord.schema where field.name != "name" { members.append((field.name, stored[field.name] ?? .null)) }
        members += [("retired", .bool(v.retired)), ("configured", .bool(v.configured))]
        return .object(members)
    }
}
