// SPDX-License-Identifier: MIT
internal import Hummingbird
internal import LogbookCore
internal import LogbookGarage
internal import LogbookRecords
internal import Logging

/// The Garage: vehicles (each with its page to edit or retire it), the OBD adapter's pending
/// fill-ups to complete or dismiss, the form to log a fill-up, the newest fuel logs (each with its page to amend or void it), the service
/// reminders, and links to odometer readings, service tasks and named places. Every form
/// posts back here; a refusal comes back on the page with what was typed kept.
struct GaragePage {
    var view: GarageView
    var format: Format
    var defaultVehicle: String?
    var failure: FormFailure?
    var notice: PageNotice?
    /// The car's last position (the fill-up form offers it).
    var car: (lat: Double, lon: Double)?
    /// `[units] currency`, the fill-up form's currency before the last fill-up's.
    var currency: String?

    static let fuelListSize = 50
    static let done = ["fuel": "Fill-up added."].merging(PendingFillForms.done) { a, _ in a }

    func render() -> String {
        """
        <section class="card">
        <h1>Garage</h1>
        \(FormHTML.notice(failure.notice(or: nil) ?? notice))
        \(vehicleList)
        <div class="buttons"><a href="/garage/vehicles/new" id="vehicle-new">Add a vehicle</a><a href="/garage/odometer" id="odometer-link">Odometer readings</a>\
        <a href="/garage/service" id="service-link">Service tasks</a><a href="/garage/places" id="places-link">Places</a><a href="/stations" id="stations-link">Stations</a></div>
        </section>
        \(PendingFillForms.section(view.pending, vehicles: view.vehicles, currency: currency ?? view.lastCurrency, units: format.units, failure: failure))
        \(active.isEmpty ? "" : FuelForms.addForm(vehicles: view.vehicles, defaultVehicle: defaultVehicle, currency: currency ?? view.lastCurrency, units: format.units, failure: failure, car: car))
        \(fuelList)
        \(Self.serviceSection(view.service, format: format))
        """
    }

    private var active: [GarageVehicle] { view.vehicles.filter { !$0.retired } }

    private var vehicleList: String {
        guard !view.vehicles.isEmpty else {
            return "<p class=\"muted\">No vehicles yet: add one here, with <code>logbook vehicles add</code> or a [[vehicle]] table.</p>"
        }
        var items = ""
        for v in view.vehicles {
            var facts: [String] = []
            facts += [v.record.make, v.record.model, v.record.year.map { String($0) }, v.registration, v.record.fuelType, v.record.driver].compactMap { $0 }
            let retired = v.retired ? " <span class=\"tag\">retired</span>" : ""
            let link = "/garage/vehicles/" + WebApp.pathEscaped(v.id)
            items += "<li data-id=\"\(HTML.escape(v.id))\"><a href=\"\(HTML.escape(link))\"><strong>\(HTML.escape(v.name))</strong></a>\(retired) "
                + "<span class=\"muted small\">\(HTML.escape(facts.joined(separator: " · ")))</span></li>"
        }
        return "<ul class=\"plain\" id=\"vehicles\">\(items)</ul>"
    }

    private var fuelList: String {
        guard !view.fills.isEmpty else { return "<section class=\"card\"><h2>Fuel logs</h2><p class=\"muted\" id=\"fuel-empty\">No fill-ups logged yet.</p></section>" }
        let names = Dictionary(view.vehicles.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        var rows = ""
        for f in view.fills {
            let day = LocalTime.zone.date(f.at)
            let partial = f.full ? "" : " <span class=\"tag\">partial</span>"
            let link = HTML.escape("/garage/fuel/\(f.number)")
            let marks = (f.missed ? " <span class=\"tag\">missed before</span>" : "") + (f.history.count > 1 ? " <span class=\"tag\">changed</span>" : "")
            rows += "<tr data-id=\"\(HTML.escape(f.id))\" data-number=\"\(f.number)\"><td><a href=\"\(link)\">#\(f.number) · \(day)</a>\(marks)<br><span class=\"muted small\">\(HTML.escape(names[f.vehicle] ?? f.vehicle))"
            rows += "\(f.station.map { " · " + HTML.escape($0) } ?? "")</span></td>"
            rows += "<td class=\"num\">\(format.units.odometerText(f.odometerKm))</td>"
            rows += "<td class=\"num\">\(format.units.volumeText(f.litres))\(partial)</td>"
            rows += "<td class=\"num\">\(Format.fixed(f.price, digits: 2)) \(HTML.escape(f.currency))</td></tr>\n"
        }
        return """
            <section class="card scroll">
            <h2>Fuel logs</h2>
            <table id="fuel-logs" class="cards"><thead><tr><th>Date</th><th class="num">Odometer</th><th class="num">Fuel</th><th class="num">Paid</th></tr></thead>
            <tbody>
            \(rows)</tbody></table>
            </section>
            """
    }

    /// The service reminders (Dashboard and Garage), overdue first.
    static func serviceSection(_ due: [ServiceDue], format: Format) -> String {
        guard !due.isEmpty else { return "" }
        let order: [ServiceDue.State: Int] = [.overdue: 0, .dueSoon: 1, .ok: 2, .unknown: 3]
        var rows = ""
        for d in due.sorted(by: { (order[$0.state] ?? 9, $0.task.id) < (order[$1.state] ?? 9, $1.task.id) }) {
            var when: [String] = []
            if let km = d.kmLeft { when.append(format.distanceText(km * 1000) + (km < 0 ? " over" : " left")) }
            if let days = d.daysLeft { when.append(Format.fixed(abs(days), digits: 0) + (days < 0 ? " days over" : " days left")) }
            let state = d.state == .dueSoon ? "due soon" : d.state.rawValue
            let tone = d.state == .overdue ? "bad" : d.state == .dueSoon ? "warn" : ""
            rows += "<tr><td>\(HTML.escape(d.task.name))<br><span class=\"muted small\">\(HTML.escape(d.task.vehicle))</span></td>"
            rows += "<td><span class=\"tag \(tone)\">\(state)</span></td><td class=\"num\">\(HTML.escape(when.joined(separator: ", ")))</td></tr>\n"
        }
        return """
            <section class="card">
            <h2>Service</h2>
            <table id="service"><thead><tr><th>Task</th><th>State</th><th class="num">When</th></tr></thead>
            <tbody>
            \(rows)</tbody></table>
            </section>
            """
    }
}

extension WebApp {
    func addGaragePage(to router: Router<WebContext>) {
        router.get("/garage") { request, context -> Response in
            try await garagePage(context, done: request.uri.queryParameters["done"].map(String.init))
        }
    }

    /// The Garage; after a refusal, with the form that failed as it was typed.
    func garagePage(_ context: WebContext, failure: FormFailure? = nil, done: String? = nil) async throws -> Response {
        let view = try await garageView(fuelLimit: GaragePage.fuelListSize)
        var page = GaragePage(view: view, format: Format(imperial: configuration.imperialUnits), defaultVehicle: configuration.defaultVehicle)
        page.currency = configuration.currency
        page.failure = failure
        page.notice = done.flatMap { GaragePage.done[$0] }.map { PageNotice(good: true, text: $0) }
        page.car = await fillPosition(vehicle: configuration.defaultVehicle).map { (lat: $0.lat, lon: $0.lon) }
        return self.page("Garage", active: "/garage", context: context, body: page.render())
    }
}
