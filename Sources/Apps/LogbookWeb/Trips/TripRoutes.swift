// SPDX-License-Identifier: MIT
internal import HTTPTypes
internal import Hummingbird
internal import LogbookCore
internal import LogbookGarage
internal import LogbookPlaces
internal import LogbookExport
internal import LogbookRecords
internal import LogbookStore
internal import NIOCore

extension WebApp {
    /// `/api/trips`, `/api/trips/{id}`, its picture and its exports.
    func addTripRoutes(to router: Router<WebContext>) {
        router.get("/api/trips") { request, _ -> Response in
            let query = try Self.tripQuery(request.uri.queryParameters, defaultLimit: 50)
            let naming = self.naming
            // Each trip's ends named as `logbook trips list --json` names them (the same namer).
            let trips = try await shelf.read { index in
                let namer = try naming.namer(index)
                return try index.trips(matching: query).map(namer.named)
            }
            return Responses.json(TripProperties.list(trips, vehicles: await registryNow().vehicle))
        }
        router.get("/api/trips/:id") { _, context -> Response in
            let id = try Self.tripID(context.parameters.get("id"))
            let naming = self.naming
            let (trip, gaps) = try await shelf.read { index -> (TripOverview, [TripGap]) in
                try Self.checkNotMerged(id, index)
                guard let trip = try index.trip(id) else { throw APIError(.notFound, "unknown_trip", "no trip \(id)") }
                // Its ends named as `logbook trips show` names them.
                return (try naming.namer(index).named(trip), try index.gaps(of: id))
            }
            let registry = await registryNow()
            let vehicle = registry.vehicle(trip.vehicleID)
            var members = TripProperties.apiMembers(of: trip, vehicle: vehicle)
            // As `logbook trips show --json`: a trip without a driver of its own names its vehicle's.
            if trip.driver == nil, let driver = registry.driver(of: trip), let i = members.firstIndex(where: { $0.0 == "driver" }) {
                members[i].1 = .string(driver)
            }
            members.append(("gaps", .array(gaps.map(TripProperties.gap))))
            let offset = trip.startedAt.map(LocalTime.offset) ?? 0
            members.append(
                ("summary", .string(TripText.shareSummary(trip, units: units, vehicleName: vehicle?.name, utcOffset: offset))))
            return Responses.json(.object(members))
        }
        router.get("/api/trips/:id/picture.svg") { _, context -> Response in
            let id = try Self.tripID(context.parameters.get("id"))
            let svg = try await tripPicture(id)
            var response = Responses.text(svg, contentType: "image/svg+xml")
            // The picture carries its own <style> and no script.
            response.headers[.contentSecurityPolicy] = "default-src 'none'; style-src 'unsafe-inline'"
            response.headers[.cacheControl] = "private, max-age=60"
            return response
        }
        router.get("/api/trips/:id/export") { request, context -> Response in
            let id = try Self.tripID(context.parameters.get("id"))
            let name = request.uri.queryParameters["format"].map(String.init) ?? "gpx"
            guard let format = ExportFormat(rawValue: name) else {
                throw APIError.badRequest("format: expected gpx, geojson or csv, got \"\(name)\"")
            }
            var options = ExportOptions(units: units)
            options.zone = LocalTime.zone
            for v in await registryNow().all { options.vehicles[v.id] = v.vehicle }
            let bytes = try await shelf.read { [options] index -> [UInt8] in
                let export = TripExport(format: format, options: options)
                try Self.checkNotMerged(id, index)
                guard try index.trip(id) != nil else { throw APIError(.notFound, "unknown_trip", "no trip \(id)") }
                let sink = MemorySink()
                try export.write([id], from: index, to: sink)
                return sink.bytes
            }
            var response = Responses.bytes(ByteBuffer(bytes: bytes), contentType: format.mediaType)
            response.headers[.contentDisposition] = "attachment; filename=\"trip-\(id).\(format.fileExtension)\""
            return response
        }
    }

    var units: UnitSystem { configuration.imperialUnits ? .imperial : .metric }

    /// Trip `id`'s picture (SVG) in the Pi's time zone; 404 when there is no such trip.
    func tripPicture(_ id: TripID) async throws(APIError) -> String {
        let units = self.units
        let vehicles = await registryNow()
        return try await shelf.read { index -> String in
            try Self.checkNotMerged(id, index)
            guard let trip = try index.trip(id) else { throw APIError(.notFound, "unknown_trip", "no trip \(id)") }
            let start = trip.startedAt ?? GPSTime(seconds: 0)
            let options = TripPictureOptions(
                units: units, utcOffset: LocalTime.offset(start), timeZoneName: LocalTime.name(start),
                vehicleName: vehicles.vehicle(trip.vehicleID)?.name)
            return TripPicture(trip: trip, points: try index.points(of: id), gaps: try index.gaps(of: id), options: options).svg()
        }
    }

    /// A trip number from a path: 400 unless it is a positive whole number.
    static func tripID(_ text: String?) throws(APIError) -> TripID {
        guard let text, let n = UInt64(text), n > 0 else {
            throw APIError.badRequest("a trip id is a positive whole number, got \"\(text ?? "")\"")
        }
        return TripID(n)
    }

    /// A trip merged into another has no page of its own: 404 naming where it went, as
    /// `logbook trips show` says.
    static func checkNotMerged(_ id: TripID, _ index: TripIndex) throws {
        if let into = try index.mergedInto(id) { throw APIError(.notFound, "merged", "trip \(id) was merged into trip \(into)") }
    }

    /// `vehicle`, `since`, `until` (`YYYY-MM-DD` local or ISO 8601 UTC), `limit` (1…1000),
    /// `include_discarded` and `include_voided` (`true`/`false`, default true: listed, not
    /// counted), as `logbook trips list` lists them.
    static func tripQuery(_ parameters: Parameters, defaultLimit: Int) throws(APIError) -> TripQuery {
        func value(_ name: String) -> String? {
            guard let s = parameters[Substring(name)].map(String.init), !s.isEmpty else { return nil }
            return s
        }
        let arguments = TripSelectionArguments(all: true, since: value("since"), until: value("until"), vehicle: value("vehicle"))
        let selection: TripSelection
        do throws(TripSelectionArguments.Problem) {
            selection = try arguments.selection(zone: LocalTime.zone)
        } catch {
            throw APIError.badRequest(error.description.replacing("--", with: ""))
        }
        guard case .matching(var query) = selection else { throw APIError.badRequest("no trips selected") }
        query.includeDiscarded = true
        query.includeVoided = true
        for (name, flag) in [("include_discarded", \TripQuery.includeDiscarded), ("include_voided", \TripQuery.includeVoided)] {
            guard let s = value(name) else { continue }
            guard s == "true" || s == "false" else { throw APIError.badRequest("\(name): expected true or false, got \"\(s)\"") }
            query[keyPath: flag] = s == "true"
        }
        var limit = defaultLimit
        if let s = value("limit") {
            guard let n = Int(s), (1...1000).contains(n) else { throw APIError.badRequest("limit: expected 1 to 1000, got \"\(s)\"") }
            limit = n
        }
        query.limit = limit
        return query
    }
}
