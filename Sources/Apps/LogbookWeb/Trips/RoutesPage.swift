// SPDX-License-Identifier: MIT
internal import Hummingbird
internal import LogbookCore
internal import LogbookGarage
internal import LogbookGarageStore
internal import LogbookPlaces
internal import LogbookStore

/// The Routes view: trips grouped by where they start and end (as `logbook routes`), most
/// driven first; `?from=&to=` marks one route and lists its trips (the trip page links here).
struct RoutesPage {
    var table: RouteTable
    var format: Format
    var selected: (from: String, to: String)?

    /// `/routes?from=A&to=B`: the link to a route.
    static func link(from: String, to: String) -> String {
        "/routes?from=\(AuthMiddleware.queryEscaped(from))&to=\(AuthMiddleware.queryEscaped(to))"
    }

    func render() -> String {
        var rows = ""
        var chosen: RouteTable.Route?
        for r in table.routes {
            let on = selected.map { $0.from == r.from && $0.to == r.to } ?? false
            if on { chosen = r }
            rows += "<tr\(on ? " class=\"selected\" id=\"route\"" : "")><td><a href=\"\(HTML.escape(Self.link(from: r.from, to: r.to)))\">\(HTML.escape(r.name))</a></td>"
            rows += "<td class=\"num\" data-label=\"Trips\">\(r.count)</td><td class=\"num\" data-label=\"Median\">\(HTML.escape(format.distanceText(r.medianDistance)))</td>"
            rows += "<td class=\"num\" data-label=\"Median time\">\(HTML.escape(NumberText.duration(r.medianDuration)))</td>"
            rows += "<td data-label=\"Fastest / slowest\"><a href=\"/trips/\(r.fastest)\">\(HTML.escape(NumberText.duration(r.fastestDuration)))</a> / "
            rows += "<a href=\"/trips/\(r.slowest)\">\(HTML.escape(NumberText.duration(r.slowestDuration)))</a></td>"
            rows += "<td data-label=\"Last driven\">\(HTML.escape(r.lastDriven.map(LocalTime.text) ?? "–"))</td></tr>\n"
        }
        var table = "<p class=\"muted\">No routes yet: no trip starts and ends at a named place or near a town.</p>"
        if !self.table.routes.isEmpty {
            table = """
                <table id="routes" class="cards"><thead><tr><th>Route</th><th class="num">Trips</th><th class="num">Median</th><th class="num">Median time</th><th>Fastest / slowest</th><th>Last driven</th></tr></thead>
                <tbody>
                \(rows)</tbody></table>
                """
        }
        var unnamed = ""
        if self.table.unnamed > 0 { unnamed = "<p class=\"muted small\">\(self.table.unnamed) trips without a place name at an end are on no route.</p>" }
        var detail = ""
        if let r = chosen {
            let trips = r.trips.reversed().map { "<a href=\"/trips/\($0)\">\($0)</a>" }.joined(separator: ", ")
            detail = "<section class=\"card\"><h2 id=\"route-name\">\(HTML.escape(r.name))</h2><p id=\"route-trips\">Trips, newest first: \(trips)</p></section>"
        }
        return """
            <section class="card">
            <h1>Routes</h1>
            \(table)
            \(unnamed)
            </section>
            \(detail)
            """
    }
}

extension WebApp {
    /// `/routes` (HTML) and `/api/routes` (JSON, as `logbook routes --json`); `?vehicle=` filters.
    func addRoutesPages(to router: Router<WebContext>) {
        router.get("/routes") { request, context -> Response in
            let parameters = request.uri.queryParameters
            let table = try await routeTable(vehicle: Self.nonEmpty(parameters, "vehicle"))
            var selected: (String, String)?
            if let from = Self.nonEmpty(parameters, "from"), let to = Self.nonEmpty(parameters, "to") { selected = (from, to) }
            let page = RoutesPage(table: table, format: Format(imperial: configuration.imperialUnits), selected: selected)
            return self.page("Routes", active: "/trips", context: context, body: page.render())
        }
        router.get("/api/routes") { request, _ -> Response in
            Responses.json(try await routeTable(vehicle: Self.nonEmpty(request.uri.queryParameters, "vehicle")).json)
        }
    }

    /// The routes of the kept trips (of `vehicle`), their ends named as the report names them.
    func routeTable(vehicle: String?) async throws -> RouteTable {
        let naming = self.naming
        return try await shelf.read { index in
            let namer = try naming.namer(index)
            let query = TripQuery(vehicleID: vehicle, includeDiscarded: false, includeVoided: false)
            return RouteTable(try index.trips(matching: query).map(namer.named))
        }
    }

    /// The named ends of `trip` (as the Routes view groups it), for the trip page's link.
    func routeEnds(of trip: TripOverview) async throws -> (from: String, to: String)? {
        let naming = self.naming
        let named = try await shelf.read { index in try naming.namer(index).named(trip) }
        guard let from = named.startPlace, let to = named.endPlace, trip.state == .closed, !trip.voided else { return nil }
        return (from, to)
    }
}
