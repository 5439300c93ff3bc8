// SPDX-License-Identifier: MIT
internal import Hummingbird
internal import LogbookCore
internal import LogbookGarage
internal import LogbookRecords
internal import Logging

/// The Garage: vehicles, a form to log a fill-up, the newest fuel logs and the service
/// reminders. The form posts to `/garage/fuel`; a refusal comes back on the page with what
/// was typed kept.
struct GaragePage {
    var view: GarageView
    var format: Format
    /// The form's values after a refusal (field name → text).
    var typed: [String: String] = [:]
    var notice: (good: Bool, text: String)?

    static let fuelListSize = 50

    func render() -> String {
        var note = ""
        if let notice {
            note = "<p class=\"notice \(notice.good ? "good" : "bad")\" role=\"\(notice.good ? "status" : "alert")\" id=\"notice\">\(HTML.escape(notice.text))</p>"
        }
        return """
            <section class="card">
            <h1>Garage</h1>
            \(note)
            \(vehicleList)
            </section>
            \(fuelForm)
            \(fuelList)
            \(Self.serviceSection(view.service, format: format))
            """
    }

    private var active: [GarageVehicle] { view.vehicles.filter { !$0.retired } }

    private var vehicleList: String {
        guard !view.vehicles.isEmpty else {
            return "<p class=\"muted\">No vehicles yet: add one with <code>logbook vehicles add</code> or a [[vehicle]] table.</p>"
        }
        var items = ""
        for v in view.vehicles {
            var facts: [String] = []
            facts += [v.record.make, v.record.model, v.record.year.map { String($0) }, v.registration, v.record.fuelType].compactMap { $0 }
            let retired = v.retired ? " <span class=\"tag\">retired</span>" : ""
            items += "<li><strong>\(HTML.escape(v.name))</strong>\(retired) <span class=\"muted small\">\(HTML.escape(facts.joined(separator: " · ")))</span></li>"
        }
        return "<ul class=\"plain\" id=\"vehicles\">\(items)</ul>"
    }

    private func typed(_ name: String, _ fallback: String = "") -> String { HTML.escape(typed[name] ?? fallback) }

    private var fuelForm: String {
        guard !active.isEmpty else { return "" }
        var options = ""
        for v in active {
            let selected = typed["vehicle"] == v.id ? " selected" : ""
            options += "<option value=\"\(HTML.escape(v.id))\"\(selected)>\(HTML.escape(v.name))</option>"
        }
        let full = typed.isEmpty || typed["full"] != nil ? " checked" : ""
        return """
            <section class="card">
            <h2>Log a fill-up</h2>
            <form method="post" action="/garage/fuel" class="filters" id="fuel-form">
            <input type="hidden" name="csrf" value="{{csrf}}">
            <div class="wide"><label for="fuel-vehicle">Vehicle</label><select id="fuel-vehicle" name="vehicle">\(options)</select></div>
            <div class="wide"><label for="fuel-odometer">Odometer (km)</label><input id="fuel-odometer" name="odometer_km" inputmode="decimal" required value="\(typed("odometer_km"))"></div>
            <div><label for="fuel-litres">Litres</label><input id="fuel-litres" name="litres" inputmode="decimal" required value="\(typed("litres"))"></div>
            <div><label for="fuel-price">Paid</label><input id="fuel-price" name="price" inputmode="decimal" required value="\(typed("price"))"></div>
            <div><label for="fuel-currency">Currency</label><input id="fuel-currency" name="currency" maxlength="3" required value="\(typed("currency", view.lastCurrency ?? "EUR"))"></div>
            <div><label for="fuel-station">Station</label><input id="fuel-station" name="station" maxlength="120" value="\(typed("station"))"></div>
            <div class="wide check"><input type="checkbox" id="fuel-full" name="full" value="on"\(full)><label for="fuel-full">Full tank</label></div>
            <button type="submit" class="primary wide">Add fill-up</button>
            </form>
            </section>
            """
    }

    private var fuelList: String {
        guard !view.fills.isEmpty else { return "<section class=\"card\"><h2>Fuel logs</h2><p class=\"muted\" id=\"fuel-empty\">No fill-ups logged yet.</p></section>" }
        let names = Dictionary(view.vehicles.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        var rows = ""
        for f in view.fills {
            let day = String(ISO8601.format(f.at).prefix(10))
            let partial = f.full ? "" : " <span class=\"tag\">partial</span>"
            rows += "<tr data-id=\"\(HTML.escape(f.id))\"><td>\(day)<br><span class=\"muted small\">\(HTML.escape(names[f.vehicle] ?? f.vehicle))"
            rows += "\(f.station.map { " · " + HTML.escape($0) } ?? "")</span></td>"
            rows += "<td class=\"num\">\(Format.fixed(f.odometerKm, digits: 0)) km</td>"
            rows += "<td class=\"num\">\(Format.fixed(f.litres, digits: 2)) L\(partial)</td>"
            rows += "<td class=\"num\">\(Format.fixed(f.price, digits: 2)) \(HTML.escape(f.currency))</td></tr>\n"
        }
        return """
            <section class="card scroll">
            <h2>Fuel logs</h2>
            <table id="fuel-logs"><thead><tr><th>Date</th><th class="num">Odometer</th><th class="num">Fuel</th><th class="num">Paid</th></tr></thead>
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
            let done = request.uri.queryParameters["done"] == "fuel"
            return try await garagePage(context, notice: done ? (true, "Fill-up added.") : nil)
        }
        router.post("/garage/fuel") { request, context -> Response in
            var request = request
            let form = FormFields(try await request.collectBody(upTo: context.maxUploadSize).readableBytesView)
            var typed: [String: String] = [:]
            for name in ["vehicle", "odometer_km", "litres", "price", "currency", "station", "full"] {
                if let v = form[name], !v.isEmpty { typed[name] = v }
            }
            do throws(APIError) {
                _ = try await garageWrite("fuel.add", try Self.fuelRequest(typed))
                return Responses.redirect("/garage?done=fuel")
            } catch {
                logger.notice("web: fill-up refused", metadata: ["code": "\(error.code)", "reason": "\(error.message)"])
                var response = try await garagePage(context, typed: typed, notice: (false, error.message))
                response.status = error.status
                return response
            }
        }
    }

    /// The form's text fields as `fuel.add` arguments: numbers parsed, the checkbox a bool.
    static func fuelRequest(_ typed: [String: String]) throws(APIError) -> [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = []
        for (name, label) in [("odometer_km", "Odometer"), ("litres", "Litres"), ("price", "Paid")] {
            guard let text = typed[name] else { throw APIError.badRequest("\(label): enter a number") }
            guard let n = Double(text.replacing(",", with: ".")), n.isFinite else { throw APIError.badRequest("\(label): \"\(text)\" is not a number") }
            fields.append((name, .number(n)))
        }
        for name in ["vehicle", "currency", "station"] { if let s = typed[name] { fields.append((name, .string(name == "currency" ? s.uppercased() : s))) } }
        fields.append(("full", .bool(typed["full"] != nil)))
        return fields
    }

    private func garagePage(_ context: WebContext, typed: [String: String] = [:], notice: (Bool, String)?) async throws -> Response {
        let view = try await garageView(fuelLimit: GaragePage.fuelListSize)
        var page = GaragePage(view: view, format: Format(imperial: configuration.imperialUnits), typed: typed)
        page.notice = notice.map { (good: $0.0, text: $0.1) }
        let body = page.render().replacing("{{csrf}}", with: HTML.escape(context.csrfToken))
        return self.page("Garage", active: "/garage", context: context, body: body)
    }
}
