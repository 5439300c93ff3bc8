// SPDX-License-Identifier: MIT
internal import Hummingbird
internal import LogbookCore
internal import LogbookExport
internal import LogbookGarage
internal import LogbookPlaces
internal import LogbookRecords

/// The Trips list: newest first, filters by vehicle, dates and whether voided trips are
/// listed; each trip marked as corrections left it (void, merged, split) with its driver; a
/// totals line that counts neither voided nor discarded trips, as `logbook trips list` does.
/// Local times (the Pi's zone), the configured units.
struct TripPages {
    var format: Format
    var units: UnitSystem
    var registry: Registry

    static let pageSize = 100

    func list(_ trips: [TripOverview], filters: [String: String], error: String?) -> String {
        var rows = ""
        for t in trips { rows += row(t) }
        let options = FormHTML.options(registry.all.map { ($0.id, $0.name) }, blank: "All vehicles", selected: filters["vehicle"])
        let voided = FormHTML.options([("true", "listed, not counted"), ("false", "left out")], blank: nil, selected: filters["include_voided"] ?? "true")
        var notice = ""
        if let error { notice = "<p class=\"notice bad\" role=\"alert\">\(HTML.escape(error))</p>" }
        var more = ""
        if trips.count >= Self.pageSize {
            more = "<p class=\"muted small\">The newest \(Self.pageSize) trips; narrow the dates to see older ones.</p>"
        }
        var table = "<p class=\"muted\">No trips recorded yet.</p>"
        if !trips.isEmpty {
            table = """
                <table id="trips"><thead><tr><th>#</th><th>Started</th><th class="num">Distance</th><th class="num">Time</th></tr></thead>
                <tbody>
                \(rows)</tbody></table>
                <p class="muted small" id="totals">\(HTML.escape(totals(trips)))</p>
                """
        }
        let since: String = HTML.escape(filters["since"] ?? "")
        let until: String = HTML.escape(filters["until"] ?? "")
        return """
            <section class="card">
            <h1>Trips</h1>
            <p><a href="/routes" id="routes-link">Routes you drive</a></p>
            \(notice)
            <form method="get" action="/trips" class="filters">
            <div class="wide"><label for="vehicle">Vehicle</label><select id="vehicle" name="vehicle">\(options)</select></div>
            <div><label for="since">From</label><input id="since" name="since" type="date" value="\(since)"></div>
            <div><label for="until">To</label><input id="until" name="until" type="date" value="\(until)"></div>
            <div class="wide"><label for="include_voided">Voided trips</label><select id="include_voided" name="include_voided">\(voided)</select></div>
            <button type="submit" class="wide">Show</button>
            </form>
            </section>
            <section class="card">
            \(table)
            \(more)
            </section>
            """
    }

    /// `3 trips · 12.40 km · 0:35:10 (1 void not counted)`.
    func totals(_ trips: [TripOverview]) -> String {
        let counted = trips.filter { !$0.discarded && !$0.voided }
        let distance = counted.reduce(0) { $0 + ($1.distance.isFinite ? $1.distance : 0) }
        let duration = counted.reduce(0) { $0 + ($1.duration.isFinite ? $1.duration : 0) }
        var s = "\(counted.count) trip\(counted.count == 1 ? "" : "s") · \(format.distanceText(distance)) · \(Format.duration(duration))"
        let discarded = trips.filter(\.discarded).count, voided = trips.filter { $0.voided && !$0.discarded }.count
        let notCounted = [discarded > 0 ? "\(discarded) discarded" : nil, voided > 0 ? "\(voided) void" : nil].compactMap { $0 }
        if !notCounted.isEmpty { s += " (\(notCounted.joined(separator: ", ")) not counted)" }
        return s
    }

    /// The tags a trip carries in lists: how it stands and how corrections changed it.
    static func tags(_ t: TripOverview) -> String {
        var tags: [String] = []
        if t.state == .open { tags.append("<span class=\"tag\">recording…</span>") }
        if t.discarded { tags.append("<span class=\"tag\">discarded</span>") }
        if t.imported { tags.append("<span class=\"tag\">imported</span>") }
        if t.voided { tags.append("<span class=\"tag bad\" title=\"\(HTML.escape(t.voidReason ?? ""))\">void</span>") }
        if !t.mergedFrom.isEmpty { tags.append("<span class=\"tag\">merged from \(t.mergedFrom.map(\.description).joined(separator: ", "))</span>") }
        if let from = t.splitFrom { tags.append("<span class=\"tag\">split from \(from)</span>") }
        return tags.isEmpty ? "" : " " + tags.joined(separator: " ")
    }

    /// `Home → near Thun, CH`: the ends the CLI names (an unnamed end shows as "–").
    static func route(_ t: TripOverview) -> String {
        (t.startPlace ?? "–") + " → " + (t.endPlace ?? "–")
    }

    private func row(_ t: TripOverview) -> String {
        var start = "–"
        if let s = t.startedAt { start = LocalTime.text(s) }
        var who = registry.vehicle(t.vehicleID)?.name ?? ""
        if let driver = registry.driver(of: t) { who += (who.isEmpty ? "" : " · ") + driver }
        let id = t.id.description
        let distance: String = HTML.escape(units.distanceText(t.distance))
        let duration: String = HTML.escape(NumberText.duration(t.duration))
        let voided = t.voided ? " class=\"void\"" : ""
        var route = ""
        if t.startPlace != nil || t.endPlace != nil {
            route = "<br><span class=\"small place\">\(HTML.escape(Self.route(t)))</span>"
        }
        return "<tr data-id=\"\(id)\"\(voided)><td><a href=\"/trips/\(id)\" class=\"row-link\" aria-label=\"Trip \(id)\">\(id)</a></td><td>\(HTML.escape(start))\(Self.tags(t))"
            + "\(route)<br><span class=\"muted small\">\(HTML.escape(who))</span></td><td class=\"num\">\(distance)</td><td class=\"num\">\(duration)</td></tr>\n"
    }
}

extension WebApp {
    func addTripPages(to router: Router<WebContext>) {
        router.get("/trips") { request, context -> Response in try await tripsPage(request, context) }
        addTripPage(to: router)
    }

    /// `/trips?vehicle=&since=&until=&include_voided=`: bad dates are shown on the page, not refused.
    private func tripsPage(_ request: Request, _ context: WebContext) async throws -> Response {
        let parameters = request.uri.queryParameters
        var filters: [String: String] = [:]
        for name in ["vehicle", "since", "until", "include_voided"] {
            if let v = parameters[Substring(name)], !v.isEmpty { filters[name] = String(v) }
        }
        let pages = TripPages(format: Format(imperial: configuration.imperialUnits), units: units, registry: await registryNow())
        var trips: [TripOverview] = []
        var problem: String?
        let query: TripQuery?
        do throws(APIError) {
            query = try Self.tripQuery(parameters, defaultLimit: TripPages.pageSize)
        } catch {
            query = nil
            problem = error.message
        }
        if let query {
            let naming = self.naming
            trips = try await shelf.read { index throws -> [TripOverview] in
                let namer = try naming.namer(index)
                return try index.trips(matching: query).map(namer.named)
            }
        }
        return page("Trips", active: "/trips", context: context, body: pages.list(trips, filters: filters, error: problem))
    }

    /// A page in the common frame; its forms' `{{csrf}}` filled in.
    func page(_ title: String, active: String, context: WebContext, maps: Bool = false, body: String) -> Response {
        Responses.html(
            Layout.page(
                title: title, active: active, csrf: context.csrfToken, assets: assets,
                units: configuration.imperialUnits ? "imperial" : "metric", signedIn: configuration.requiresLogin && !context.bearer,
                maps: maps && leaflet.installed, body: body.replacing("{{csrf}}", with: HTML.escape(context.csrfToken))))
    }
}
