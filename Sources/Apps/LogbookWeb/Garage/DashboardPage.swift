// SPDX-License-Identifier: MIT
internal import Hummingbird
internal import LogbookCore
internal import LogbookGarage

/// The Dashboard: the KPIs of `logbook stats` over a range, the economy trend chart, each
/// vehicle's figures and the service reminders.
struct DashboardPage {
    var view: DashboardView
    var format: Format
    var vehicles: [(id: String, name: String)]

    static let rangeTitles = [("week", "7 days"), ("month", "30 days"), ("3months", "3 months"), ("year", "Year"), ("all", "All")]

    /// How many trips wait for a classification and the oldest one's age, linked to it.
    var unclassifiedLine: String {
        guard let u = view.unclassified else { return "" }
        guard u.count > 0, let oldest = u.oldest, let age = u.oldestAge else {
            return "<p class=\"muted small\" id=\"unclassified\">Every trip is classified.</p>"
        }
        let trips = "\(u.count) unclassified trip\(u.count == 1 ? "" : "s")"
        return "<p class=\"notice\" id=\"unclassified\">\(trips), the oldest (<a href=\"/trips/\(oldest)\">trip \(oldest)</a>) \(HTML.escape(UnclassifiedTrips.age(age))) old.</p>"
    }

    func render() -> String {
        let s = view.stats
        var chips = ""
        for (name, title) in Self.rangeTitles {
            let on = name == s.range.name ? " aria-current=\"page\"" : ""
            chips += "<a href=\"/dashboard?range=\(name)\(vehicleQuery)\"\(on)>\(title)</a>"
        }
        let scope = HTML.escape(s.vehicle.flatMap { id in vehicles.first { $0.id == id }?.name } ?? s.vehicle ?? "All vehicles")
        var trend = "<p class=\"muted\">No full-tank intervals in this range yet: log two full fill-ups to see the economy.</p>"
        if !s.trend.isEmpty {
            trend = EconomyChart(points: s.trend, imperial: format.imperial).svg()
        }
        return """
            <section class="card">
            <h1>Dashboard</h1>
            <p class="muted">\(scope)</p>
            \(unclassifiedLine)
            <nav class="chips" aria-label="Range">\(chips)</nav>
            <dl class="stats" id="kpis">
            <div><dt>Distance</dt><dd id="kpi-distance">\(HTML.escape(format.distanceText(s.distanceKm * 1000)))</dd></div>
            <div><dt>Fill-ups</dt><dd id="kpi-fillups">\(s.fillUps)</dd></div>
            <div><dt>Fuel</dt><dd>\(HTML.escape(format.units.volumeText(s.litres, places: 1)))</dd></div>
            <div><dt>Spend</dt><dd>\(HTML.escape(Self.money(s.spend)))</dd></div>
            <div><dt>Economy</dt><dd id="kpi-economy">\(HTML.escape(economy(s.litresPer100km)))</dd></div>
            <div><dt>Cost per \(format.imperial ? "mi" : "km")</dt><dd>\(HTML.escape(Self.money(perDistance(s.costPerKm), digits: 3)))</dd></div>
            <div><dt>Per \(format.imperial ? "gallon" : "litre")</dt><dd>\(HTML.escape(Self.money(s.costPerLitre.mapValues(format.units.perVolume), digits: 3)))</dd></div>
            <div><dt>Last fill-up</dt><dd>\(HTML.escape(s.lastFill.map { LocalTime.zone.date($0.at) } ?? "–"))</dd></div>
            </dl>
            </section>
            <section class="card">
            <h2>Economy by \(s.range.bucket.rawValue)</h2>
            \(trend)
            </section>
            <section class="card">
            <h2>Price per \(format.imperial ? "gallon" : "litre")</h2>
            \(PriceChart(series: view.prices, units: format.units).html())
            </section>
            \(vehicleTable)
            \(GaragePage.serviceSection(view.service, format: format))
            """
    }

    private var vehicleQuery: String {
        view.stats.vehicle.map { "&vehicle=" + AuthMiddleware.queryEscaped($0) } ?? ""
    }

    private var vehicleTable: String {
        let rows = view.stats.vehicles
        guard rows.count > 1 || (rows.count == 1 && view.stats.vehicle == nil) else { return "" }
        var body = ""
        for v in rows {
            let link = "/dashboard?range=\(view.stats.range.name)&vehicle=\(AuthMiddleware.queryEscaped(v.id))"
            body += "<tr><td><a href=\"\(HTML.escape(link))\">\(HTML.escape(v.name))</a></td>"
            body += "<td class=\"num\">\(HTML.escape(format.distanceText(v.distanceKm * 1000)))</td>"
            body += "<td class=\"num\">\(HTML.escape(economy(v.litresPer100km)))</td>"
            body += "<td class=\"num\">\(HTML.escape(Self.money(v.spend)))</td></tr>\n"
        }
        return """
            <section class="card">
            <h2>Vehicles</h2>
            <table id="vehicle-kpis" class="cards"><thead><tr><th>Vehicle</th><th class="num">Distance</th><th class="num">Economy</th><th class="num">Spend</th></tr></thead>
            <tbody>
            \(body)</tbody></table>
            </section>
            """
    }

    func economy(_ litresPer100km: Double?) -> String {
        guard let l = litresPer100km else { return "–" }
        if format.imperial { return Format.fixed(UnitSystem.mpgUS(litresPer100km: l), digits: 1) + " mpg" }
        return Format.fixed(l, digits: 2) + " L/100 km"
    }

    private func perDistance(_ perKm: [String: Double]) -> [String: Double] {
        perKm.mapValues(format.units.perDistance)
    }

    /// `123.40 EUR · 12.00 CHF` (never added across currencies), `–` when empty.
    static func money(_ amounts: [String: Double], digits: Int = 2) -> String {
        guard !amounts.isEmpty else { return "–" }
        return amounts.keys.sorted().map { Format.fixed(amounts[$0] ?? 0, digits: digits) + " " + $0 }.joined(separator: " · ")
    }
}

extension WebApp {
    func addDashboardPage(to router: Router<WebContext>) {
        router.get("/dashboard") { request, context -> Response in
            let parameters = request.uri.queryParameters
            let range = try Self.statsRange(parameters["range"].map(String.init) ?? "year")
            let vehicle = Self.nonEmpty(parameters, "vehicle")
            let view = try await dashboard(range: range, vehicle: vehicle)
            let names = view.stats.vehicles.map { (id: $0.id, name: $0.name) }
            let page = DashboardPage(view: view, format: Format(imperial: configuration.imperialUnits), vehicles: names)
            return self.page("Dashboard", active: "/dashboard", context: context, body: page.render())
        }
    }
}
