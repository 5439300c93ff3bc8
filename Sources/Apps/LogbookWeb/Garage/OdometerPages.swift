// SPDX-License-Identifier: MIT
internal import Hummingbird
internal import LogbookCore
internal import LogbookGarage
internal import LogbookGarageStore
internal import LogbookRecords

/// Odometer readings: the list with a form to add one, and a reading's page to amend or void
/// it (`odometer.add`, `odometer.amend`, `odometer.void`) — a mistyped reading no longer
/// blocks every later fill-up.
enum OdometerForms {
    static func inputs(_ command: String, required: Bool) -> [FormInput] {
        [
            FormInput("vehicle", "Vehicle", .vehicle(blank: nil), required: required, wide: true),
            FormInput("at", "When", .time(seconds: false), wide: true, hint: required ? "Empty: now" : nil),
            FormInput.field(command, "odometer_km", "Odometer (km)", required: required, wide: true, key: "odometer"),
            FormInput.field(command, "note", "Note", wide: true),
        ]
    }

    static let add = FormSpec(inputs("odometer.add", required: true))
    static let amend = FormSpec(inputs("odometer.amend", required: false))
    static let void = FormSpec([FormInput.field("odometer.void", "reason", "Why", wide: true)])

    static let done = ["added": "Reading added.", "changed": "Reading changed.", "voided": "Reading voided: it no longer counts."]

    /// `/garage/odometer`: every reading, newest first, and the form to add one.
    static func list(
        _ readings: [OdometerReading], vehicles: [GarageVehicle], defaultVehicle: String?, units: UnitSystem, failure: FormFailure?, done: String?
    ) -> String {
        var rows = ""
        let names = Dictionary(vehicles.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        for r in readings.sorted(by: { $0.at > $1.at }) {
            let link = HTML.escape("/garage/odometer/\(r.number)")
            let state = r.voided ? " <span class=\"tag\">void</span>" : r.history.count > 1 ? " <span class=\"tag\">changed</span>" : ""
            rows += "<tr data-id=\"\(HTML.escape(r.id))\" data-number=\"\(r.number)\"><td><a href=\"\(link)\">#\(r.number) · \(HTML.escape(LocalTime.text(r.at)))</a>\(state)<br>"
                + "<span class=\"muted small\">\(HTML.escape(names[r.vehicle] ?? r.vehicle)) · by \(HTML.escape(r.origin ?? "?"))</span></td>"
                + "<td class=\"num\">\(units.odometerText(r.odometerKm))</td></tr>\n"
        }
        let table =
            rows.isEmpty
            ? "<p class=\"muted\" id=\"odometer-empty\">No readings yet.</p>"
            : "<table id=\"readings\"><thead><tr><th>When</th><th class=\"num\">Odometer</th></tr></thead><tbody>\n\(rows)</tbody></table>"
        let values = failure.values(for: "odometer-add", ["vehicle": defaultVehicle ?? ""])
        return """
            <section class="card">
            <h1>Odometer readings</h1>
            \(FormHTML.notice(failure.notice(or: done.flatMap { Self.done[$0] })))
            \(FormHTML.form(id: "odometer-add", action: "/garage/odometer", spec: add.in(units), values: values, vehicles: vehicles, submit: "Add reading"))
            </section>
            <section class="card">
            \(table)
            </section>
            """
    }

    /// `/garage/odometer/ID`.
    static func page(_ r: OdometerReading, vehicles: [GarageVehicle], units: UnitSystem, failure: FormFailure?, done: String?) -> String {
        let path = "/garage/odometer/\(r.number)"
        let amend = amend.in(units)
        var forms = "<p class=\"notice bad\" id=\"voided\">Void: this reading no longer counts.</p>"
        if !r.voided {
            forms = """
                <h2>Amend</h2>
                \(FormHTML.form(id: "odometer-amend", action: path, spec: amend, values: failure.values(for: "odometer-amend", amend.values(of: r.record.fields)), vehicles: vehicles, submit: "Save changes"))
                <h2>Void</h2>
                \(FormHTML.form(id: "odometer-void", action: path + "/void", spec: void, values: failure.values(for: "odometer-void"), vehicles: [], submit: "Void reading", style: "danger"))
                """
        }
        return """
            <section class="card">
            <h1>#\(r.number) · \(units.odometerText(r.odometerKm))</h1>
            <p class="muted small">\(HTML.escape(LocalTime.text(r.at))) · \(HTML.escape(r.vehicle)) · \(HTML.escape(r.id))</p>
            \(FormHTML.notice(failure.notice(or: done.flatMap { Self.done[$0] })))
            \(forms)
            </section>
            <section class="card">
            <h2>History</h2>
            \(FormHTML.history(r.history))
            </section>
            """
    }
}

extension WebApp {
    func addOdometerPages(to router: Router<WebContext>) {
        router.get("/garage/odometer") { request, context -> Response in
            try await odometerList(context, done: request.uri.queryParameters["done"].map(String.init))
        }
        router.post("/garage/odometer") { request, context -> Response in
            try await formPost(
                request, context, form: "odometer-add", spec: OdometerForms.add.in(configuration.units), command: "odometer.add",
                fields: { (posted) throws(APIError) in try OdometerForms.add.in(configuration.units).request(posted) },
                done: { _ in "/garage/odometer?done=added" },
                page: { failure in try await odometerList(context, failure: failure) })
        }
        router.get("/garage/odometer/:id") { request, context -> Response in
            try await odometerPage(context, done: request.uri.queryParameters["done"].map(String.init))
        }
        router.post("/garage/odometer/:id") { request, context -> Response in
            let current = try await reading(try Self.pathParameter(context))
            let spec = OdometerForms.amend.in(configuration.units)
            return try await formPost(
                request, context, form: "odometer-amend", spec: spec, command: "odometer.amend",
                fields: { (posted) throws(APIError) in [("subject", .string(current.id))] + (try spec.changes(posted, from: current.record.fields)) },
                done: { _ in "/garage/odometer/\(current.number)?done=changed" },
                page: { failure in try await odometerPage(context, failure: failure) })
        }
        router.post("/garage/odometer/:id/void") { request, context -> Response in
            let current = try await reading(try Self.pathParameter(context))
            return try await formPost(
                request, context, form: "odometer-void", spec: OdometerForms.void, command: "odometer.void",
                fields: { (posted) throws(APIError) in [("subject", .string(current.id))] + (try OdometerForms.void.request(posted)) },
                done: { _ in "/garage/odometer/\(current.number)?done=voided" },
                page: { failure in try await odometerPage(context, failure: failure) })
        }
    }

    /// The garage without classifications, from the caught-up index.
    func garage() async throws(APIError) -> Garage {
        let configured = configuration.vehicles
        return try await shelf.read { index in try GarageStore.garage(index, configured: configured, types: GarageStore.withoutClassifications) }
    }

    private func odometerList(_ context: WebContext, failure: FormFailure? = nil, done: String? = nil) async throws -> Response {
        let garage = try await self.garage()
        let body = OdometerForms.list(
            garage.readings, vehicles: garage.vehicles, defaultVehicle: configuration.defaultVehicle, units: configuration.units, failure: failure, done: done)
        return page("Odometer readings", active: "/garage", context: context, body: body)
    }

    private func odometerPage(_ context: WebContext, failure: FormFailure? = nil, done: String? = nil) async throws -> Response {
        let garage = try await self.garage()
        let reading = try Self.reading(try Self.pathParameter(context), in: garage)
        let body = OdometerForms.page(reading, vehicles: garage.vehicles, units: configuration.units, failure: failure, done: done)
        return page("Odometer reading", active: "/garage", context: context, body: body)
    }

    /// Reading `id` (its short number or its id); 404 when there is none.
    private func reading(_ id: String) async throws(APIError) -> OdometerReading { try Self.reading(id, in: try await garage()) }

    private static func reading(_ id: String, in garage: Garage) throws(APIError) -> OdometerReading {
        guard let r = garage.reading(try resolved(id, .odometer, in: garage)) else { throw APIError(.notFound, "unknown_entry", "no odometer reading \(id)") }
        return r
    }
}
