// SPDX-License-Identifier: MIT
internal import Hummingbird
internal import LogbookCore
internal import LogbookExport
internal import LogbookGarage
internal import LogbookPlaces
internal import LogbookGarageStore
internal import LogbookRecords
internal import LogbookStore

/// A trip's page: stat cards, why it starts and ends there, how corrections changed it (void,
/// merged, split, its vehicle and driver), the route picture (`LogbookExport`'s SVG), the
/// export links, its classification, the corrections a person can make, and the history
/// panel listing every change (when, what, from where).
struct TripPage {
    /// What the page shows of one trip, read from the index in one go.
    struct Facts: Sendable {
        var trip: TripOverview
        var gaps: [TripGap]
        var classification: TripClassification?
        var history: [RecordedEntry]
        /// The next trip of the same vehicle: the one a merge would join.
        var next: TripOverview?
        /// Its route's named ends (the Routes view), when both are named.
        var route: (from: String, to: String)? = nil
    }

    var facts: Facts
    var units: UnitSystem
    var registry: Registry
    var failure: FormFailure?
    var notice: PageNotice?
    /// The map's tiles; nil without Leaflet (the picture alone then).
    var tiles: MapTiles?

    func render() -> String {
        let t = facts.trip
        let vehicle = registry.vehicle(t.vehicleID)
        let offset: Int = t.startedAt.map(LocalTime.offset) ?? 0
        let zone: String = HTML.escape(t.startedAt.map(LocalTime.name) ?? "UTC")
        var start = "–"
        if let s = t.startedAt { start = HTML.escape(TripText.dateTime(s, utcOffset: offset)) }
        var end = t.state == .open ? "recording…" : "–"
        if let e = t.endedAt { end = HTML.escape(TripText.clock(e, utcOffset: offset)) }
        let gaps = facts.gaps
        let bridged = gaps.filter(\.bridged).count
        let summary: String = HTML.escape(TripText.shareSummary(t, units: units, vehicleName: vehicle?.name, utcOffset: offset))
        let id = t.id.description
        var exports = ""
        for f in ExportFormat.allCases {
            exports += "<a href=\"/api/trips/\(id)/export?format=\(f.rawValue)\" download>\(f.rawValue.uppercased())</a>"
        }
        var title = "Trip " + id
        if let vehicle { title += " · \(HTML.escape(vehicle.name))" }
        let started: String = HTML.escape(ReasonWords.text(t.startReason))
        var ended = "not yet"
        if let r = t.endReason { ended = HTML.escape(ReasonWords.text(r)) }
        let driver = HTML.escape(registry.driver(of: t) ?? "–")
        var routeLine = ""
        if t.startPlace != nil || t.endPlace != nil {
            routeLine = "From: <span id=\"start-place\">\(HTML.escape(t.startPlace ?? "–"))</span><br>To: <span id=\"end-place\">\(HTML.escape(t.endPlace ?? "–"))</span><br>"
        }
        if let r = facts.route {
            routeLine += "Route: <a id=\"route-link\" href=\"\(HTML.escape(RoutesPage.link(from: r.from, to: r.to)))\">\(HTML.escape(r.from)) → \(HTML.escape(r.to))</a><br>"
        }
        return """
            <section class="card">
            <h1>\(title)\(TripPages.tags(t))</h1>
            <p class="muted">\(start) → \(end) \(zone)</p>
            \(FormHTML.notice(failure.notice(or: nil) ?? notice))
            \(states)
            <dl class="stats">
            <div><dt>Distance</dt><dd id="distance">\(HTML.escape(units.distanceText(t.distance)))</dd></div>
            <div><dt>Duration</dt><dd>\(HTML.escape(NumberText.duration(t.duration)))</dd></div>
            <div><dt>Average</dt><dd>\(HTML.escape(units.speedText(t.averageSpeed)))</dd></div>
            <div><dt>Top</dt><dd>\(HTML.escape(units.speedText(t.maxSpeed)))</dd></div>
            </dl>
            <p>Started: <span id="start-reason">\(started)</span><br>
            Ended: <span id="end-reason">\(ended)</span><br>
            Driver: <span id="driver">\(driver)</span><br>
            \(routeLine)
            \(t.pointCount) GPS positions recorded · signal lost \(gaps.count == 1 ? "once" : "\(gaps.count) times")\(gaps.isEmpty ? "" : ", \(bridged) of them bridged")</p>
            </section>
            \(mapSection)
            <section class="card picture">
            <img id="picture" src="/api/trips/\(id)/picture.svg" alt="\(summary)" width="800" height="760">
            </section>
            <section class="card">
            <h2>Share</h2><p id="summary">\(summary)</p>
            <div class="buttons"><button type="button" id="share" data-gpx="/api/trips/\(id)/export?format=gpx" data-name="trip-\(id).gpx" hidden>Share</button>\(exports)</div>
            <p class="muted small" id="share-status"></p>
            \(handoff)
            </section>
            \(t.state == .open || t.discarded ? "" : classifyForm)
            \(t.state == .open ? "" : TripCorrectionForms(trip: t, next: facts.next, registry: registry, failure: failure).render())
            <section class="card">
            <h2>History</h2>
            \(FormHTML.history(facts.history, after: t.endedAt))
            </section>
            """
    }

    /// The street map with the speed-coloured route, its legend, and the speed chart that
    /// marks a moment on it (`map.js`).
    private var mapSection: String {
        guard let tiles else { return "" }
        let id = facts.trip.id.description
        return """
            <section class="card">
            \(MapHTML.element(id: "trip-map", tiles: tiles, data: [("track", "/api/trips/\(id)/track")], label: "The trip on a map"))
            <p class="legend muted small" id="trip-legend"></p>
            <div id="trip-chart" class="speed-chart" aria-label="Speed over time: hover or tap to mark the moment on the map"></div>
            <p class="muted small" id="trip-chart-readout">Hover or tap the speed chart to mark that moment on the map.</p>
            </section>
            """
    }

    /// Links that open the trip's start and end in a navigation app.
    private var handoff: String {
        let t = facts.trip
        var out = ""
        if let s = t.start {
            out += "<p class=\"small\">Start: \(MapHTML.links(MapLinks(latitude: s.latitude, longitude: s.longitude, label: t.startPlace), id: "start-links"))</p>"
        }
        if let e = t.end {
            out += "<p class=\"small\">End: \(MapHTML.links(MapLinks(latitude: e.latitude, longitude: e.longitude, label: t.endPlace), id: "end-links"))</p>"
        }
        return out
    }

    /// What corrections made of it, in words.
    private var states: String {
        let t = facts.trip
        var out = ""
        if t.state == .open {
            out += "<p class=\"notice good\">Recording: the figures grow as the trip goes on.</p>"
        } else if t.discarded {
            out += "<p class=\"notice bad\">Discarded: shorter than the minimum trip.</p>"
        }
        if t.imported {
            out += "<p class=\"notice\">Imported (\(HTML.escape(t.startReason))): reconstructed from another app's history, not recorded at the time.</p>"
        }
        if t.voided {
            let reason = t.voidReason.map { ": " + HTML.escape($0) } ?? ""
            out += "<p class=\"notice bad\" id=\"void-state\">Void\(reason). Listed, not counted in totals or the report.</p>"
        }
        if !t.mergedFrom.isEmpty {
            let links = t.mergedFrom.map { "<a href=\"/trips/\($0)\">\($0)</a>" }.joined(separator: ", ")
            out += "<p class=\"muted\" id=\"merged-state\">Trip \(links) merged into this one; the time between them shows as a gap.</p>"
        }
        if let from = t.splitFrom {
            out += "<p class=\"muted\" id=\"split-state\">Split off trip <a href=\"/trips/\(from)\">\(from)</a>.</p>"
        }
        return out
    }

    /// The mileage report's classification of a closed trip: business, private or commute,
    /// with purpose, partner and destination (a new entry each time; the report marks changes).
    private var classifyForm: String {
        let c = facts.classification
        var status = "<p class=\"muted small\">Not classified yet.</p>"
        if let c { status = "<p class=\"muted small\" id=\"class-now\">Classified \(HTML.escape(c.tripClass))\(c.changed ? " (changed)" : "").</p>" }
        let current = ["class": c?.tripClass ?? "", "purpose": c?.purpose ?? "", "partner": c?.partner ?? "", "destination": c?.destination ?? ""]
        return """
            <section class="card">
            <h2>Mileage report</h2>
            \(status)
            \(FormHTML.form(
                id: "class-form", action: "/trips/\(facts.trip.id)/class", spec: TripCorrectionForms.classify,
                values: failure.values(for: "class-form", current), vehicles: [], submit: "Save", prefix: "class"))
            </section>
            """
    }
}

extension WebApp {
    func addTripPage(to router: Router<WebContext>) {
        router.get("/trips/:id") { request, context -> Response in
            let query = request.uri.queryParameters
            return try await tripPage(context, done: query["done"].map(String.init), newTrip: query["new"].map(String.init))
        }
        addTripCorrectionForms(to: router)
    }

    /// What a trip number shows: the trip, or where it went (merged into another).
    private enum Found: Sendable {
        case trip(TripPage.Facts)
        case merged(into: TripID, history: [RecordedEntry])
    }

    /// Trip `id`'s page; after a refusal with the form that failed as it was typed.
    func tripPage(_ context: WebContext, failure: FormFailure? = nil, done: String? = nil, newTrip: String? = nil) async throws -> Response {
        let id = try Self.tripID(context.parameters.get("id"))
        let naming = self.naming
        let found = try await shelf.read { index throws -> Found in
            if let into = try index.mergedInto(id) { return .merged(into: into, history: try index.history(of: id)) }
            guard let trip = try index.trip(id).map(naming.namer(index).named) else { throw APIError(.notFound, "unknown_trip", "no trip \(id)") }
            var entries: [RecordedEntry] = []
            try index.forEachEntry(type: TripClassRecord.type, subject: id.description) { e in
                entries.append(RecordedEntry(e))
                return true
            }
            var next: TripOverview?
            if trip.state != .open { next = try index.nextTrip(after: id) }
            return .trip(
                TripPage.Facts(
                    trip: trip, gaps: try index.gaps(of: id), classification: Garage(entries: entries).classifications[id],
                    history: try index.history(of: id), next: next))
        }
        let registry = await registryNow()
        switch found {
        case .merged(let into, let history):
            let body = """
                <section class="card">
                <h1>Trip \(id)</h1>
                <p class="notice good" id="merged-into">Trip \(id) was merged into <a href="/trips/\(into)">trip \(into)</a>.</p>
                </section>
                <section class="card"><h2>History</h2>\(FormHTML.history(history))</section>
                """
            return page("Trip \(id)", active: "/trips", context: context, body: body)
        case .trip(var facts):
            facts.route = try await routeEnds(of: facts.trip)
            var text = done.flatMap { TripCorrectionForms.notices[$0] }
            if done == "split" { text = "Trip split: the second part is trip \(newTrip.flatMap { UInt64($0) }.map(String.init) ?? "?")." }
            let page = TripPage(
                facts: facts, units: units, registry: registry, failure: failure, notice: text.map { PageNotice(good: true, text: $0) },
                tiles: leaflet.installed ? configuration.mapTiles : nil)
            return self.page("Trip \(id)", active: "/trips", context: context, maps: true, body: page.render())
        }
    }
}
