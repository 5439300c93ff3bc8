// SPDX-License-Identifier: MIT
internal import Hummingbird
internal import LogbookCore
internal import LogbookGarage
internal import LogbookGarageStore
internal import LogbookRecords

/// Fill-ups: the Garage's form to log one (date and time, missed flag, note, station,
/// position), and a fill-up's page to amend or void it (`fuel.add`, `fuel.amend`, `fuel.void`).
enum FuelForms {
    static func inputs(_ command: String, required: Bool) -> [FormInput] {
        [
            FormInput("vehicle", "Vehicle", .vehicle(blank: nil), required: required, wide: true),
            FormInput("at", "When", .time(seconds: false), wide: true, hint: required ? "Empty: now" : nil),
            FormInput.field(command, "odometer_km", "Odometer (km)", required: required, wide: true, key: "odometer"),
            FormInput.field(command, "litres", "Litres", required: required),
            FormInput.field(command, "price", "Paid", required: required),
            FormInput.field(command, "currency", "Currency"),
            FormInput.field(command, "station", "Station"),
            FormInput.field(command, "full", "Full tank"),
            FormInput.field(command, "missed", "A fill-up before this one was not logged", key: "missed"),
            FormInput.field(command, "station_address", "Station address", wide: true, key: "address"),
            FormInput.field(command, "lat", "Latitude"),
            FormInput.field(command, "lon", "Longitude"),
            FormInput.field(command, "note", "Note", wide: true),
        ]
    }

    static let add = FormSpec(inputs("fuel.add", required: true))
    static let amend = FormSpec(inputs("fuel.amend", required: false))
    static let void = FormSpec([FormInput.field("fuel.void", "reason", "Why", wide: true)])

    static let done = ["changed": "Fill-up changed.", "voided": "Fill-up voided: it no longer counts."]

    /// The Garage's form: the registry's active vehicles, the last currency, a full tank.
    static func addForm(
        vehicles: [GarageVehicle], defaultVehicle: String?, currency: String?, units: UnitSystem, failure: FormFailure?, car: (lat: Double, lon: Double)?
    ) -> String {
        var defaults = ["vehicle": defaultVehicle ?? "", "full": "on", "missed": "off"]
        if let currency { defaults["currency"] = currency }
        let values = failure.values(for: "fuel-form", defaults)
        // Ticked unless a refused post untucked it: a fill-up is where the car is (as the CLI does).
        let ticked = failure?.form == "fuel-form" ? failure?.typed["car_position"] == "on" : car != nil
        // Refused as a duplicate: the same form again, with a way to say it is another fill-up.
        let duplicate = failure?.form == "fuel-form" && failure?.message.contains("same vehicle, odometer and litres") == true
        let force = duplicate ? "<p><label><input type=\"checkbox\" name=\"force\"> Log it anyway: this is another fill-up</label></p>" : ""
        return """
            <section class="card">
            <h2>Log a fill-up</h2>
            \(FormHTML.form(
                id: "fuel-form", action: "/garage/fuel", spec: add.in(units), values: values, vehicles: vehicles, submit: "Add fill-up",
                extra: force + FormHTML.positionPickers(prefix: "fuel", car: car, ticked: ticked), prefix: "fuel"))
            </section>
            """
    }

    /// `/garage/fuel/ID`: the fill-up's values to amend, voiding it, its history.
    static func page(
        _ log: FuelLog, vehicles: [GarageVehicle], units: UnitSystem, failure: FormFailure?, done: String?, car: (lat: Double, lon: Double)?
    ) -> String {
        let path = "/garage/fuel/\(log.number)"
        let amend = amend.in(units)
        var forms = "<p class=\"notice bad\" id=\"voided\">Void: this fill-up no longer counts.</p>"
        if !log.voided {
            forms = """
                <h2>Amend</h2>
                <p class="muted small">Change what was wrong; an empty field keeps its value. The old values stay in the history.</p>
                \(FormHTML.form(
                    id: "fuel-amend", action: path, spec: amend, values: failure.values(for: "fuel-amend", amend.values(of: log.record.fields)),
                    vehicles: vehicles, submit: "Save changes", extra: FormHTML.positionPickers(prefix: "fuel-amend", car: car, ticked: false)))
                <h2>Void</h2>
                \(FormHTML.form(id: "fuel-void", action: path + "/void", spec: void, values: failure.values(for: "fuel-void"), vehicles: [], submit: "Void fill-up", style: "danger"))
                """
        }
        let name = vehicles.first { $0.id == log.vehicle }?.name ?? log.vehicle
        let when = LocalTime.text(log.at)
        return """
            <section class="card">
            <h1>Fill-up #\(log.number) · \(HTML.escape(when))</h1>
            <p class="muted small">\(HTML.escape(name)) · \(units.volumeText(log.litres)) · \(Format.fixed(log.price, digits: 2)) \(HTML.escape(log.currency)) · \(HTML.escape(log.id))</p>
            \(FormHTML.notice(failure.notice(or: done.flatMap { Self.done[$0] })))
            \(forms)
            </section>
            <section class="card">
            <h2>History</h2>
            \(FormHTML.history(log.history))
            </section>
            """
    }
}

extension WebApp {
    func addFuelPages(to router: Router<WebContext>) {
        router.post("/garage/fuel") { request, context -> Response in
            try await formPost(
                request, context, form: "fuel-form", spec: FuelForms.add.in(configuration.units), command: "fuel.add", forceField: "force",
                fields: { (posted) throws(APIError) in
                    try await withDefaultCurrency(try await withFillPosition(try FuelForms.add.in(configuration.units).request(posted), posted))
                },
                done: { _ in "/garage?done=fuel" },
                page: { failure in try await garagePage(context, failure: failure) })
        }
        router.get("/garage/fuel/:id") { request, context -> Response in
            try await fuelPage(context, done: request.uri.queryParameters["done"].map(String.init))
        }
        router.post("/garage/fuel/:id") { request, context -> Response in
            let current = try await fuelLog(try Self.pathParameter(context))
            let spec = FuelForms.amend.in(configuration.units)
            return try await formPost(
                request, context, form: "fuel-amend", spec: spec, command: "fuel.amend",
                fields: { (posted) throws(APIError) in
                    [("subject", .string(current.id))] + (try withCarPosition(try spec.changes(posted, from: current.record.fields), posted))
                },
                done: { _ in "/garage/fuel/\(current.number)?done=changed" },
                page: { failure in try await fuelPage(context, failure: failure) })
        }
        router.post("/garage/fuel/:id/void") { request, context -> Response in
            let current = try await fuelLog(try Self.pathParameter(context))
            return try await formPost(
                request, context, form: "fuel-void", spec: FuelForms.void, command: "fuel.void",
                fields: { (posted) throws(APIError) in [("subject", .string(current.id))] + (try FuelForms.void.request(posted)) },
                done: { _ in "/garage/fuel/\(current.number)?done=voided" },
                page: { failure in try await fuelPage(context, failure: failure) })
        }
    }

    /// Fill-up `id` (its short number or its id), voided or not; 404 when there is none.
    func fuelLog(_ id: String) async throws(APIError) -> FuelLog {
        let configured = configuration.vehicles
        return try await shelf.read { index throws -> FuelLog in
            let garage = try GarageStore.garage(index, configured: configured, types: [VehicleRecord.type, FuelRecord.type])
            guard let log = garage.fuelLog(try Self.resolved(id, .fuel, in: garage)) else { throw APIError(.notFound, "unknown_entry", "no fuel log \(id)") }
            return log
        }
    }

    /// The entry id a URL's `:id` means (``Garage/resolve(_:_:)``): an unknown number is 404.
    static func resolved(_ id: String, _ kind: ShortNumberKind, in garage: Garage) throws(APIError) -> String {
        do throws(EntryProblem) {
            return try garage.resolve(id, kind)
        } catch {
            throw APIError(.notFound, error.code, error.message)
        }
    }

    /// A fill-up's request with its currency: as typed, else `[units] currency`, else the
    /// vehicle's last fill-up's (``Garage/defaultCurrency(vehicle:configured:)``).
    func withDefaultCurrency(_ fields: [(String, JSONValue)]) async throws(APIError) -> [(String, JSONValue)] {
        guard !fields.contains(where: { $0.0 == "currency" }) else { return fields }
        let vehicle = fields.first { $0.0 == "vehicle" }?.1.stringValue
        let configured = configuration.currency
        let currency = try await shelf.read { index in
            try GarageStore.garage(index, configured: [], types: [FuelRecord.type]).defaultCurrency(vehicle: vehicle, configured: configured)
        }
        guard let currency else {
            throw APIError.badRequest("Currency: no default yet (no earlier fill-up and no [units] currency): type one, such as EUR")
        }
        return fields + [("currency", .string(currency))]
    }

    private func fuelPage(_ context: WebContext, failure: FormFailure? = nil, done: String? = nil) async throws -> Response {
        let log = try await fuelLog(try Self.pathParameter(context))
        let registry = await registryNow()
        let body = FuelForms.page(log, vehicles: registry.all, units: configuration.units, failure: failure, done: done, car: knownCarPosition())
        return page("Fill-up", active: "/garage", context: context, body: body)
    }
}
