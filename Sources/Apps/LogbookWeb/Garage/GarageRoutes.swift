// SPDX-License-Identifier: MIT
internal import HTTPTypes
internal import Hummingbird
internal import LogbookCore
internal import LogbookGarage
internal import LogbookGarageStore
internal import LogbookPlaces
internal import LogbookRecords
internal import LogbookStore
internal import LogbookPOSIX

extension WebApp {
    /// `/api/stats`, `/api/garage`, `/api/fuel`, `/api/odometer`, `/api/places` and
    /// `/api/report`, from the index (the writes: ``addWriteRoutes(to:)``).
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
            year = LocalTime.zone.wallClock(GPSClock.now()).date.year
        }
        let vehicle = Self.nonEmpty(parameters, "vehicle")
        let configured = configuration.vehicles
        let journal = configuration.journalDirectory
        let zone = configuration.timeZone, rates = configuration.reimbursement
        let naming = self.naming
        return try await shelf.read { index throws -> (MileageReport, [GarageVehicle]) in
            let garage = try GarageStore.garage(index, configured: configured)
            if let vehicle, garage.vehicle(vehicle) == nil { throw APIError.notFound("no vehicle \"\(vehicle)\"") }
            let namer = try naming.namer(index)
            let report = try GarageStore.report(index, garage: garage, year: year, vehicle: vehicle, namer: namer, journalDirectory: journal, zone: zone, rates: rates)
            return (report, garage.vehicles)
        }
    }

    /// The report's own A4 page: it carries its style inline and no script.
    static func printable(_ report: MileageReport) -> Response {
        var response = Responses.html(report.html)
        response.headers[.contentSecurityPolicy] = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"
        return response
    }
}

/// The wall clock as a ``GPSTime`` (UTC nanoseconds since 1970, as the CLI stamps entries).
enum GPSClock {
    static func now() -> GPSTime { GPSTime(nanoseconds: WallClock.nanoseconds()) }
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
