// SPDX-License-Identifier: MIT
internal import Hummingbird
internal import LogbookCore
internal import LogbookGarage
internal import LogbookGarageStore
internal import LogbookRecords

/// Adding, editing and retiring vehicles (`vehicle.add`, `vehicle.amend`, `vehicle.retire`):
/// every field of ``VehicleRecord``, the same checks and messages as `logbook vehicles`.
enum VehicleForms {
    /// The vehicle's fields, as `logbook vehicles add/edit` takes them.
    static let details = [
        FormInput.field("vehicle.add", "name", "Name", wide: true),
        FormInput.field("vehicle.add", "make", "Make"),
        FormInput.field("vehicle.add", "model", "Model"),
        FormInput.field("vehicle.add", "year", "Model year"),
        FormInput.field("vehicle.add", "registration", "Registration"),
        FormInput.field("vehicle.add", "fuel_type", "Fuel"),
        FormInput.field("vehicle.add", "tank_l", "Tank (L)"),
        FormInput.field("vehicle.add", "initial_odometer_km", "Odometer when added (km)", wide: true),
        FormInput.field("vehicle.add", "vin", "VIN", wide: true),
        FormInput.field("vehicle.add", "driver", "Usual driver", wide: true),
    ]
    static let add = FormSpec(
        [FormInput("vehicle", "Id (a-z, 0-9, _ and -)", .text(maxLength: 32), required: true, wide: true, key: "id")] + details)
    static let edit = FormSpec(details)
    static let retire = FormSpec([FormInput.field("vehicle.retire", "reason", "Why", wide: true)])

    static let done = ["added": "Vehicle added.", "changed": "Vehicle changed.", "retired": "Vehicle retired."]

    /// `/garage/vehicles/new`.
    static func newPage(units: UnitSystem, failure: FormFailure?) -> String {
        let add = add.in(units)
        return """
        <section class="card">
        <h1>Add a vehicle</h1>
        \(FormHTML.notice(failure.notice(or: nil)))
        \(FormHTML.form(id: "vehicle-add", action: "/garage/vehicles", spec: add, values: failure.values(for: "vehicle-add"), vehicles: [], submit: "Add vehicle"))
        </section>
        """
    }

    /// `/garage/vehicles/ID`: its details to edit, retiring it, its history.
    static func page(_ v: GarageVehicle, units: UnitSystem, failure: FormFailure?, done: String?) -> String {
        let path = "/garage/vehicles/" + WebApp.pathEscaped(v.id)
        let edit = edit.in(units)
        var forms = ""
        if v.retired {
            forms = "<p class=\"muted\" id=\"retired\">Retired: its trips and logs stay. Add it again with the same id to use it.</p>"
        } else {
            forms = """
                <h2>Details</h2>
                \(FormHTML.form(id: "vehicle-edit", action: path, spec: edit, values: failure.values(for: "vehicle-edit", edit.values(of: v.record.fields)), vehicles: [], submit: "Save changes"))
                <h2>Retire</h2>
                \(FormHTML.form(id: "vehicle-retire", action: path + "/retire", spec: retire, values: failure.values(for: "vehicle-retire"), vehicles: [], submit: "Retire vehicle", style: "danger"))
                """
        }
        let origin = v.configured ? (v.history.isEmpty ? "configuration file" : "configuration file and journal") : "journal"
        return """
            <section class="card">
            <h1>\(HTML.escape(v.name))\(v.retired ? " <span class=\"tag\">retired</span>" : "")</h1>
            <p class="muted small">Vehicle \(HTML.escape(v.id)) · from the \(origin)</p>
            \(FormHTML.notice(failure.notice(or: done.flatMap { Self.done[$0] })))
            \(forms)
            </section>
            <section class="card">
            <h2>History</h2>
            \(FormHTML.history(v.history))
            </section>
            """
    }
}

extension WebApp {
    func addVehiclePages(to router: Router<WebContext>) {
        router.get("/garage/vehicles/new") { _, context -> Response in
            page("Add a vehicle", active: "/garage", context: context, body: VehicleForms.newPage(units: configuration.units, failure: nil))
        }
        router.post("/garage/vehicles") { request, context -> Response in
            try await formPost(
                request, context, form: "vehicle-add", spec: VehicleForms.add.in(configuration.units), command: "vehicle.add",
                fields: { (posted) throws(APIError) in try VehicleForms.add.in(configuration.units).request(posted) },
                done: { reply in "/garage/vehicles/\(Self.pathEscaped(reply["subject"]?.stringValue ?? ""))?done=added" },
                page: { failure in
                    page("Add a vehicle", active: "/garage", context: context, body: VehicleForms.newPage(units: configuration.units, failure: failure))
                })
        }
        router.get("/garage/vehicles/:id") { request, context -> Response in
            try await vehiclePage(context, done: request.uri.queryParameters["done"].map(String.init))
        }
        router.post("/garage/vehicles/:id") { request, context -> Response in
            let id = try Self.pathParameter(context)
            let current = try await garageVehicle(id)
            return try await formPost(
                request, context, form: "vehicle-edit", spec: VehicleForms.edit.in(configuration.units), command: "vehicle.amend",
                fields: { (posted) throws(APIError) in
                    [("vehicle", .string(id))] + (try VehicleForms.edit.in(configuration.units).changes(posted, from: current.record.fields))
                },
                done: { _ in "/garage/vehicles/\(Self.pathEscaped(id))?done=changed" },
                page: { failure in try await vehiclePage(context, failure: failure) })
        }
        router.post("/garage/vehicles/:id/retire") { request, context -> Response in
            let id = try Self.pathParameter(context)
            return try await formPost(
                request, context, form: "vehicle-retire", spec: VehicleForms.retire, command: "vehicle.retire",
                fields: { (posted) throws(APIError) in [("vehicle", .string(id))] + (try VehicleForms.retire.request(posted)) },
                done: { _ in "/garage/vehicles/\(Self.pathEscaped(id))?done=retired" },
                page: { failure in try await vehiclePage(context, failure: failure) })
        }
    }

    /// The vehicle `id` of the registry, retired or not; 404 when there is none.
    func garageVehicle(_ id: String) async throws(APIError) -> GarageVehicle {
        let registry = await registryNow()
        guard let v = registry.all.first(where: { $0.id == id }) else { throw APIError(.notFound, "unknown_vehicle", "no vehicle \"\(id)\"") }
        return v
    }

    private func vehiclePage(_ context: WebContext, failure: FormFailure? = nil, done: String? = nil) async throws -> Response {
        let v = try await garageVehicle(try Self.pathParameter(context))
        let body = VehicleForms.page(v, units: configuration.units, failure: failure, done: done)
        return page(v.name, active: "/garage", context: context, body: body)
    }
}
