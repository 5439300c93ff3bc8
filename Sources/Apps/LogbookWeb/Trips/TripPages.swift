// SPDX-License-Identifier: MIT
internal import Hummingbird
internal import LogbookCore
internal import LogbookExport
internal import LogbookGarage
internal import LogbookGarageStore
internal import LogbookRecords
internal import LogbookStore

/// The Trips list (newest first, filters by vehicle and dates) and a trip's page: stat
/// cards, why it starts and ends there, the route picture (`LogbookExport`'s SVG) and the
/// export links. Local times (the Pi's zone), the configured units.
struct TripPages {
    var format: Format
    var units: UnitSystem
    var vehicles: [Vehicle]

    static let pageSize = 100

    func list(_ trips: [TripOverview], filters: [String: String], error: String?) -> String {
        var rows = ""
        for t in trips { rows += row(t) }
        var options = "<option value=\"\">All vehicles</option>"
        for v in vehicles {
            let selected: String = filters["vehicle"] == v.id ? " selected" : ""
            let id: String = HTML.escape(v.id), name: String = HTML.escape(v.name)
            options += "<option value=\"\(id)\"\(selected)>\(name)</option>"
        }
        var notice = ""
        if let error {
            let text: String = HTML.escape(error)
            notice = "<p class=\"notice bad\" role=\"alert\">\(text)</p>"
        }
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
                """
        }
        let since: String = HTML.escape(filters["since"] ?? "")
        let until: String = HTML.escape(filters["until"] ?? "")
        return """
            <section class="card">
            <h1>Trips</h1>
            \(notice)
            <form method="get" action="/trips" class="filters">
            <div class="wide"><label for="vehicle">Vehicle</label><select id="vehicle" name="vehicle">\(options)</select></div>
            <div><label for="since">From</label><input id="since" name="since" type="date" value="\(since)"></div>
            <div><label for="until">To</label><input id="until" name="until" type="date" value="\(until)"></div>
            <button type="submit" class="wide">Show</button>
            </form>
            </section>
            <section class="card">
            \(table)
            \(more)
            </section>
            """
    }

    private func row(_ t: TripOverview) -> String {
        var start = "–"
        if let s = t.startedAt { start = TripText.dateTime(s, utcOffset: LocalTime.offset(s)) }
        let vehicle: String = vehicles.first { $0.id == t.vehicleID }?.name ?? t.vehicleID ?? ""
        var tag = ""
        if t.state == .open { tag = " <span class=\"tag\">recording…</span>" } else if t.discarded { tag = " <span class=\"tag\">discarded</span>" }
        if t.imported { tag += " <span class=\"tag\">imported</span>" }
        let id = t.id.description
        let distance: String = HTML.escape(units.distanceText(t.distance))
        let duration: String = HTML.escape(NumberText.duration(t.duration))
        let startText: String = HTML.escape(start), vehicleText: String = HTML.escape(vehicle)
        return "<tr><td><a href=\"/trips/\(id)\">\(id)</a></td><td>\(startText)\(tag)<br><span class=\"muted small\">\(vehicleText)</span></td>"
            + "<td class=\"num\">\(distance)</td><td class=\"num\">\(duration)</td></tr>\n"
    }

    func trip(_ t: TripOverview, gaps: [TripGap], classification: TripClassification? = nil, notice: String? = nil) -> String {
        let vehicle: Vehicle? = vehicles.first { $0.id == t.vehicleID }
        let offset: Int = t.startedAt.map(LocalTime.offset) ?? 0
        let zone: String = HTML.escape(t.startedAt.map(LocalTime.name) ?? "UTC")
        var start = "–"
        if let s = t.startedAt { start = HTML.escape(TripText.dateTime(s, utcOffset: offset)) }
        var end = t.state == .open ? "recording…" : "–"
        if let e = t.endedAt { end = HTML.escape(TripText.clock(e, utcOffset: offset)) }
        let bridged = gaps.filter(\.bridged).count
        let summary: String = HTML.escape(TripText.shareSummary(t, units: units, vehicleName: vehicle?.name, utcOffset: offset))
        var state = ""
        if t.state == .open {
            state = "<p class=\"notice good\">Recording: the figures grow as the trip goes on.</p>"
        } else if t.discarded {
            state = "<p class=\"notice bad\">Discarded: shorter than the minimum trip.</p>"
        }
        if t.imported {
            state += "<p class=\"notice\">Imported (\(HTML.escape(t.startReason))): reconstructed from another app's history, not recorded at the time.</p>"
        }
        let id = t.id.description
        var exports = ""
        for f in ExportFormat.allCases {
            let format: String = f.rawValue, label: String = f.rawValue.uppercased()
            exports += "<a href=\"/api/trips/\(id)/export?format=\(format)\" download>\(label)</a>"
        }
        var title = "Trip " + id
        if let vehicle {
            let name: String = HTML.escape(vehicle.name)
            title += " · \(name)"
        }
        let distance: String = HTML.escape(units.distanceText(t.distance))
        let duration: String = HTML.escape(NumberText.duration(t.duration))
        let average: String = HTML.escape(units.speedText(t.averageSpeed))
        let top: String = HTML.escape(units.speedText(t.maxSpeed))
        let started: String = HTML.escape(TripText.reason(t.startReason))
        var ended = "not yet"
        if let r = t.endReason { ended = HTML.escape(TripText.reason(r)) }
        let points = String(t.pointCount), gapCount = String(gaps.count), bridgedCount = String(bridged)
        return """
            <section class="card">
            <h1>\(title)</h1>
            <p class="muted">\(start) → \(end) \(zone)</p>
            \(state)
            <dl class="stats">
            <div><dt>Distance</dt><dd id="distance">\(distance)</dd></div>
            <div><dt>Duration</dt><dd>\(duration)</dd></div>
            <div><dt>Average</dt><dd>\(average)</dd></div>
            <div><dt>Top</dt><dd>\(top)</dd></div>
            </dl>
            <p>Started: <span id="start-reason">\(started)</span><br>
            Ended: <span id="end-reason">\(ended)</span><br>
            \(points) points · without a fix: \(gapCount) gaps, \(bridgedCount) bridged</p>
            </section>
            <section class="card picture">
            <img id="picture" src="/api/trips/\(id)/picture.svg" alt="\(summary)" width="800" height="760">
            </section>
            <section class="card">
            <h2>Share</h2><p id="summary">\(summary)</p>
            <div class="buttons">\(exports)</div>
            </section>
            \(t.state == .open || t.discarded ? "" : classifyForm(t.id, classification, notice: notice))
            """
    }

    /// The mileage report's classification of a closed trip: business, private or commute,
    /// with purpose, partner and destination (a new entry each time; the report marks changes).
    func classifyForm(_ id: TripID, _ c: TripClassification?, notice: String?) -> String {
        var options = ""
        for name in TripClassRecord.classes {
            let selected = c?.tripClass == name ? " selected" : ""
            options += "<option value=\"\(name)\"\(selected)>\(name)</option>"
        }
        func field(_ name: String, _ label: String, _ value: String?) -> String {
            let v: String = HTML.escape(value ?? "")
            return "<div class=\"wide\"><label for=\"class-\(name)\">\(label)</label><input id=\"class-\(name)\" name=\"\(name)\" maxlength=\"200\" value=\"\(v)\"></div>"
        }
        var status = "<p class=\"muted small\">Not classified yet.</p>"
        if let c { status = "<p class=\"muted small\" id=\"class-now\">Classified \(HTML.escape(c.tripClass))\(c.history.count > 1 ? " (changed)" : "").</p>" }
        if let notice { status = "<p class=\"notice bad\" role=\"alert\">\(HTML.escape(notice))</p>" + status }
        return """
            <section class="card">
            <h2>Mileage report</h2>
            \(status)
            <form method="post" action="/trips/\(id)/class" class="filters" id="class-form">
            <input type="hidden" name="csrf" value="{{csrf}}">
            <div class="wide"><label for="class-class">Class</label><select id="class-class" name="class">\(options)</select></div>
            \(field("purpose", "Purpose", c?.purpose))
            \(field("partner", "Partner", c?.partner))
            \(field("destination", "Destination", c?.destination))
            <button type="submit" class="wide">Save</button>
            </form>
            </section>
            """
    }
}

extension WebApp {
    func addTripPages(to router: Router<WebContext>) {
        router.get("/trips") { request, context -> Response in try await tripsPage(request, context) }
        router.get("/trips/:id") { _, context -> Response in try await tripPage(context) }
        router.post("/trips/:id/class") { request, context -> Response in
            let id = try Self.tripID(context.parameters.get("id"))
            var request = request
            let form = FormFields(try await request.collectBody(upTo: context.maxUploadSize).readableBytesView)
            var fields: [(String, JSONValue)] = [("trip", .number(Double(id.rawValue)))]
            for name in ["class", "purpose", "partner", "destination"] {
                if let v = form[name], !v.isEmpty { fields.append((name, .string(v))) }
            }
            do throws(APIError) {
                _ = try await garageWrite("trip.classify", fields)
                return Responses.redirect("/trips/\(id)")
            } catch {
                var response = try await tripPage(context, notice: error.message)
                response.status = error.status
                return response
            }
        }
    }

    /// `/trips?vehicle=&since=&until=`: bad dates are shown on the page, not refused.
    private func tripsPage(_ request: Request, _ context: WebContext) async throws -> Response {
        let parameters = request.uri.queryParameters
        var filters: [String: String] = [:]
        for name in ["vehicle", "since", "until"] {
            if let v = parameters[Substring(name)], !v.isEmpty { filters[name] = String(v) }
        }
        let pages = TripPages(format: Format(imperial: configuration.imperialUnits), units: units, vehicles: configuration.vehicles.map(\.vehicle))
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
            trips = try await shelf.read { index throws -> [TripOverview] in try index.trips(matching: query) }
        }
        return page("Trips", active: "/trips", context: context, body: pages.list(trips, filters: filters, error: problem))
    }

    private func tripPage(_ context: WebContext, notice: String? = nil) async throws -> Response {
        let id = try Self.tripID(context.parameters.get("id"))
        let found: (TripOverview, [TripGap], TripClassification?) = try await shelf.read { index throws in
            guard let trip = try index.trip(id) else { throw APIError.notFound("no trip \(id)") }
            var entries: [RecordedEntry] = []
            try index.forEachEntry(type: "trip.class", subject: id.description) { e in
                entries.append(RecordedEntry(e))
                return true
            }
            return (trip, try index.gaps(of: id), Garage(entries: entries).classifications[id])
        }
        let pages = TripPages(format: Format(imperial: configuration.imperialUnits), units: units, vehicles: configuration.vehicles.map(\.vehicle))
        let body = pages.trip(found.0, gaps: found.1, classification: found.2, notice: notice)
        return page("Trip \(id)", active: "/trips", context: context, body: body.replacing("{{csrf}}", with: HTML.escape(context.csrfToken)))
    }

    /// A page in the common frame.
    func page(_ title: String, active: String, context: WebContext, body: String) -> Response {
        Responses.html(
            Layout.page(
                title: title, active: active, csrf: context.csrfToken, assets: assets,
                units: configuration.imperialUnits ? "imperial" : "metric", signedIn: configuration.requiresLogin && !context.bearer,
                body: body))
    }
}
