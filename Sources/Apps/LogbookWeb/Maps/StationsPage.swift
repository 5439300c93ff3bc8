// SPDX-License-Identifier: MIT
internal import Hummingbird
internal import LogbookCore
internal import LogbookGarage
internal import LogbookGarageStore
internal import LogbookStore

/// The Stations page: a map with a pin per station refuelled at (framing them all) and the
/// list, nearest to the car first (its live fix, else where its last trip ended), each with
/// links that open a navigation app. `GET /api/fuel/stations` is `logbook fuel stations --json`.
extension WebApp {
    func addStationsPage(to router: Router<WebContext>) {
        router.get("/api/fuel/stations") { request, _ -> Response in
            let (stations, unplaced, origin) = try await stations(vehicle: Self.nonEmpty(request.uri.queryParameters, "vehicle"))
            return Responses.json(FuelStations.json(stations, unplaced: unplaced, from: origin))
        }
        router.get("/stations") { request, context -> Response in
            let vehicle = Self.nonEmpty(request.uri.queryParameters, "vehicle")
            let (stations, unplaced, origin) = try await stations(vehicle: vehicle)
            let query = vehicle.map { "?vehicle=" + AuthMiddleware.queryEscaped($0) } ?? ""
            var rows = ""
            for (i, s) in stations.enumerated() {
                let prices = s.pricePerLitre.keys.sorted().map { Format.fixed(s.pricePerLitre[$0] ?? 0, digits: 3) + " " + $0 }
                let name: String = HTML.escape(s.name ?? "(unnamed)")
                let distance: String = s.distance.map { " · " + HTML.escape(units.distanceText($0)) } ?? ""
                let last: String = HTML.escape(LocalTime.zone.date(s.lastVisit))
                let litres: String = Format.fixed(s.litres, digits: 1)
                let price: String = HTML.escape(prices.joined(separator: ", "))
                let links: String = MapHTML.links(s.links, id: "station-links-\(i)")
                rows += "<li><strong>\(name)</strong>\(distance)<br><span class=\"muted small\">\(s.visits) visits · last \(last) · "
                rows += "\(litres) L · \(price) per litre</span><br>\(links)</li>\n"
            }
            let from = origin.map { $0.source == "live" ? "the car's position now" : "where the last trip ended" }
            let body = """
                <section class="card">
                <h1>Stations</h1>
                \(leaflet.installed ? MapHTML.element(id: "stations-map", tiles: configuration.mapTiles, data: [("stations", "/api/fuel/stations\(query)")], label: "Stations refuelled at") : "")
                <p class="muted small">\(stations.count) stations\(from.map { ", nearest to \($0) first" } ?? ", newest visit first")\(unplaced > 0 ? "; \(unplaced) fill-ups have no position" : "").</p>
                <ol id="stations" class="stations">\(rows)</ol>
                </section>
                """
            return page("Stations", active: "/garage", context: context, maps: true, body: body)
        }
    }

    /// The stations of every fill-up (or `vehicle`'s), sorted from the car's position.
    func stations(vehicle: String?) async throws(APIError) -> ([FuelStation], Int, FuelStations.Origin?) {
        let configured = configuration.vehicles
        let from = knownCarPosition().map { FuelStations.Origin(latitude: $0.lat, longitude: $0.lon, source: "live") }
        return try await shelf.read { index throws -> ([FuelStation], Int, FuelStations.Origin?) in
            let garage = try GarageStore.garage(index, configured: configured, types: GarageStore.withoutClassifications)
            if let vehicle, garage.vehicle(vehicle) == nil { throw APIError.notFound("no vehicle \"\(vehicle)\"") }
            var origin = from
            if origin == nil {
                try index.forEachTrip(matching: TripQuery(vehicleID: vehicle, limit: 20, includeDiscarded: false, includeVoided: false)) { t in
                    guard let end = t.end else { return true }
                    origin = FuelStations.Origin(latitude: end.latitude, longitude: end.longitude, source: "last_trip")
                    return false
                }
            }
            let (stations, unplaced) = FuelStations.group(
                garage.fuelLogs.filter { vehicle == nil || $0.vehicle == vehicle }, from: origin.map { ($0.latitude, $0.longitude) })
            return (stations, unplaced, origin)
        }
    }
}
