// SPDX-License-Identifier: MIT
internal import Hummingbird
internal import LogbookCore
internal import LogbookGarage
internal import LogbookGarageStore
internal import LogbookRecords

/// Service tasks: the list with a form to add one, and a task's page to mark it done or
/// remove it (`service.add`, `service.done`, `service.remove`), as `logbook service` does.
enum ServiceForms {
    static let add = FormSpec([
        FormInput("task", "Id (a-z, 0-9, _ and -), e.g. golf-oil", .text(maxLength: 32), required: true, wide: true, key: "id"),
        FormInput("vehicle", "Vehicle", .vehicle(blank: nil), required: true, wide: true),
        FormInput.field("service.add", "name", "What, e.g. Oil change", required: true, wide: true),
        FormInput.field("service.add", "every_km", "Every … km"),
        FormInput.field("service.add", "every_months", "Every … months"),
        FormInput("last_done_at", "Last done", .time(seconds: false), wide: true, hint: "Empty: now"),
        FormInput.field("service.add", "last_done_km", "Odometer then (km)", wide: true),
        FormInput.field("service.add", "note", "Note", wide: true),
    ])
    static let done = FormSpec([
        FormInput("at", "When", .time(seconds: false), wide: true, hint: "Empty: now"),
        FormInput.field("service.done", "odometer_km", "Odometer (km)", wide: true, key: "odometer"),
        FormInput.field("service.done", "note", "Note", wide: true),
    ])
    static let remove = FormSpec([FormInput.field("service.remove", "reason", "Why", wide: true)])

    static let notices = ["added": "Service task added.", "done": "Marked done.", "removed": "Service task removed."]

    /// `/garage/service`.
    static func list(_ due: [ServiceDue], removed: [ServiceTask], vehicles: [GarageVehicle], format: Format, failure: FormFailure?, done: String?) -> String {
        var links = ""
        for d in due {
            links += "<li data-number=\"\(d.task.number)\"><a href=\"/garage/service/\(d.task.number)\">#\(d.task.number) · \(HTML.escape(d.task.name))</a>"
                + " <span class=\"muted small\">\(HTML.escape(d.task.id)) · \(HTML.escape(d.task.vehicle))</span></li>"
        }
        for t in removed {
            links += "<li data-number=\"\(t.number)\"><a href=\"/garage/service/\(t.number)\">#\(t.number) · \(HTML.escape(t.name))</a> <span class=\"tag\">removed</span></li>"
        }
        return """
            <section class="card">
            <h1>Service tasks</h1>
            \(FormHTML.notice(failure.notice(or: done.flatMap { notices[$0] })))
            \(links.isEmpty ? "<p class=\"muted\" id=\"service-empty\">No service tasks yet.</p>" : "<ul class=\"plain\" id=\"service-tasks\">\(links)</ul>")
            </section>
            \(GaragePage.serviceSection(due, format: format))
            <section class="card">
            <h2>Add a task</h2>
            \(FormHTML.form(id: "service-add", action: "/garage/service", spec: add.in(format.units), values: failure.values(for: "service-add"), vehicles: vehicles, submit: "Add task"))
            </section>
            """
    }

    /// `/garage/service/ID`.
    static func page(_ t: ServiceTask, due: ServiceDue?, format: Format, failure: FormFailure?, done: String?) -> String {
        let path = "/garage/service/\(t.number)"
        let units = format.units
        var facts: [String] = []
        if let km = t.everyKm { facts.append("every \(units.odometerText(km))") }
        if let m = t.everyMonths { facts.append("every \(m) months") }
        if let at = t.lastDoneAt { facts.append("last done \(LocalTime.text(at))" + (t.lastDoneKm.map { " at \(units.odometerText($0))" } ?? "")) }
        var forms = "<p class=\"muted\" id=\"removed\">Removed: its history stays.</p>"
        if !t.removed {
            forms = """
                <h2>Done</h2>
                \(FormHTML.form(id: "service-done", action: path + "/done", spec: Self.done.in(units), values: failure.values(for: "service-done"), vehicles: [], submit: "Mark done"))
                <h2>Remove</h2>
                \(FormHTML.form(id: "service-remove", action: path + "/remove", spec: remove, values: failure.values(for: "service-remove"), vehicles: [], submit: "Remove task", style: "danger"))
                """
        }
        let state = due.map { d in " <span class=\"tag\" id=\"service-state\">\(d.state == .dueSoon ? "due soon" : d.state.rawValue)</span>" } ?? ""
        return """
            <section class="card">
            <h1>#\(t.number) · \(HTML.escape(t.name))\(state)</h1>
            <p class="muted small">\(HTML.escape(t.id)) · \(HTML.escape(t.vehicle)) · \(HTML.escape(facts.joined(separator: " · ")))</p>
            \(FormHTML.notice(failure.notice(or: done.flatMap { notices[$0] })))
            \(forms)
            </section>
            <section class="card">
            <h2>History</h2>
            \(FormHTML.history(t.history))
            </section>
            """
    }
}

extension WebApp {
    func addServicePages(to router: Router<WebContext>) {
        router.get("/garage/service") { request, context -> Response in
            try await serviceList(context, done: request.uri.queryParameters["done"].map(String.init))
        }
        router.post("/garage/service") { request, context -> Response in
            try await formPost(
                request, context, form: "service-add", spec: ServiceForms.add.in(configuration.units), command: "service.add",
                fields: { (posted) throws(APIError) in try ServiceForms.add.in(configuration.units).request(posted) },
                done: { reply in "/garage/service/\(Self.pathEscaped(reply["subject"]?.stringValue ?? ""))?done=added" },
                page: { failure in try await serviceList(context, failure: failure) })
        }
        router.get("/garage/service/:id") { request, context -> Response in
            try await servicePage(context, done: request.uri.queryParameters["done"].map(String.init))
        }
        for (action, spec, command) in [("done", ServiceForms.done, "service.done"), ("remove", ServiceForms.remove, "service.remove")] {
            router.post("/garage/service/:id/\(action)") { request, context -> Response in
                let task = try await serviceTask(try Self.pathParameter(context))
                let spec = spec.in(configuration.units)
                return try await formPost(
                    request, context, form: "service-\(action)", spec: spec, command: command,
                    fields: { (posted) throws(APIError) in [("task", .string(task.id))] + (try spec.request(posted)) },
                    done: { _ in "/garage/service/\(task.number)?done=\(action == "done" ? "done" : "removed")" },
                    page: { failure in try await servicePage(context, failure: failure) })
            }
        }
    }

    /// The tasks' states now and the removed tasks.
    private func serviceState() async throws(APIError) -> (due: [ServiceDue], garage: Garage) {
        let configured = configuration.vehicles
        return try await shelf.read { index throws -> ([ServiceDue], Garage) in
            let garage = try GarageStore.garage(index, configured: configured, types: GarageStore.withoutClassifications)
            return (try GarageStore.serviceDue(index, garage: garage, now: GPSClock.now()), garage)
        }
    }

    private func serviceList(_ context: WebContext, failure: FormFailure? = nil, done: String? = nil) async throws -> Response {
        let (due, garage) = try await serviceState()
        let body = ServiceForms.list(
            due, removed: garage.services.filter(\.removed), vehicles: garage.vehicles, format: Format(imperial: configuration.imperialUnits),
            failure: failure, done: done)
        return page("Service tasks", active: "/garage", context: context, body: body)
    }

    private func servicePage(_ context: WebContext, failure: FormFailure? = nil, done: String? = nil) async throws -> Response {
        let (due, garage) = try await serviceState()
        let task = try Self.serviceTask(try Self.pathParameter(context), in: garage)
        let body = ServiceForms.page(
            task, due: due.first { $0.task.id == task.id }, format: Format(imperial: configuration.imperialUnits), failure: failure, done: done)
        return page(task.name, active: "/garage", context: context, body: body)
    }

    /// Task `id` (its short number or its id), removed or not; 404 when there is none.
    private func serviceTask(_ id: String) async throws(APIError) -> ServiceTask { try Self.serviceTask(id, in: try await serviceState().garage) }

    private static func serviceTask(_ id: String, in garage: Garage) throws(APIError) -> ServiceTask {
        let resolved = try resolved(id, .service, in: garage)
        guard let task = garage.services.first(where: { $0.id == resolved }) else { throw APIError(.notFound, "unknown_entry", "no service task \(id)") }
        return task
    }
}
