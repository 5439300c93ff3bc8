// SPDX-License-Identifier: MIT
internal import Hummingbird
internal import LogbookCore
internal import LogbookGarage
internal import LogbookGarageStore
internal import LogbookRecords

/// The Garage's pending fill-ups (the OBD adapter saw the fuel level rise while the car
/// stood): each with a form to complete it — the price, the litres and odometer when the
/// estimates are wrong — (`fuel.add` with `pending`, ``GarageStore/completion(_:garage:pending:_:)``)
/// and a button to dismiss it (`fuel.dismiss`).
enum PendingFillForms {
    static let complete = FormSpec([
        FormInput.field("fuel.add", "price", "Paid", required: true),
        FormInput.field("fuel.add", "litres", "Litres"),
        FormInput.field("fuel.add", "currency", "Currency"),
        FormInput.field("fuel.add", "odometer_km", "Odometer (km)", key: "odometer"),
    ])
    static let dismiss = FormSpec([FormInput.field("fuel.dismiss", "reason", "Why", wide: true)])

    static let done = ["pending-completed": "Fill-up logged.", "pending-dismissed": "Pending fill-up dismissed."]

    /// The form ids of the pending fill-up at `position` in the list.
    static func formID(_ position: Int, _ what: String) -> String { "pending-\(position)-\(what)" }

    static func section(_ pending: [PendingFill], vehicles: [GarageVehicle], currency: String?, units: UnitSystem, failure: FormFailure?) -> String {
        guard !pending.isEmpty else { return "" }
        let names = Dictionary(vehicles.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        var items = ""
        for (i, p) in pending.enumerated() {
            let path = "/garage/fuel/pending/" + WebApp.pathEscaped(p.id)
            var facts = [p.vehicle.map { names[$0] ?? $0 } ?? "vehicle unknown"]
            if let l = p.record.litresEstimated { facts.append("about \(units.volumeText(l, places: 1))") }
            if let b = p.record.levelBefore, let a = p.record.levelAfter { facts.append("\(Format.fixed(b, digits: 0)) → \(Format.fixed(a, digits: 0)) %") }
            var defaults = ["currency": currency ?? ""]
            if let l = p.record.litresEstimated { defaults["litres"] = Format.fixed(units.volume(l), digits: 1) }
            items += """
                <li data-id="\(HTML.escape(p.id))"><strong>\(HTML.escape(LocalTime.text(p.at)))</strong> <span class="muted small">\(HTML.escape(facts.joined(separator: " · ")))</span>
                \(FormHTML.form(
                    id: formID(i, "complete"), action: path + "/complete", spec: complete.in(units), values: failure.values(for: formID(i, "complete"), defaults),
                    vehicles: [], submit: "Log fill-up"))
                \(FormHTML.form(
                    id: formID(i, "dismiss"), action: path + "/dismiss", spec: dismiss, values: failure.values(for: formID(i, "dismiss")),
                    vehicles: [], submit: "Dismiss", style: "danger"))
                </li>
                """
        }
        return """
            <section class="card" id="pending-fills">
            <h2>Pending fill-ups</h2>
            <p class="muted small">The OBD adapter saw the fuel level rise while the car stood. Give the price to log it; an empty
            odometer is estimated from the readings and trips.</p>
            <ul class="plain">\(items)</ul>
            </section>
            """
    }
}

extension WebApp {
    func addPendingFillPages(to router: Router<WebContext>) {
        router.post("/garage/fuel/pending/:id/complete") { request, context -> Response in
            let id = try Self.pathParameter(context)
            let form = PendingFillForms.formID(try await pendingPosition(id), "complete")
            return try await formPost(
                request, context, form: form, spec: PendingFillForms.complete.in(configuration.units), command: "fuel.add",
                fields: { (posted) throws(APIError) in try await completion(id, try PendingFillForms.complete.in(configuration.units).request(posted)) },
                done: { _ in "/garage?done=pending-completed" },
                page: { failure in try await garagePage(context, failure: failure) })
        }
        router.post("/garage/fuel/pending/:id/dismiss") { request, context -> Response in
            let id = try Self.pathParameter(context)
            let form = PendingFillForms.formID(try await pendingPosition(id), "dismiss")
            return try await formPost(
                request, context, form: form, spec: PendingFillForms.dismiss, command: "fuel.dismiss",
                fields: { (posted) throws(APIError) in [("subject", .string(id))] + (try PendingFillForms.dismiss.request(posted)) },
                done: { _ in "/garage?done=pending-dismissed" },
                page: { failure in try await garagePage(context, failure: failure) })
        }
    }

    /// Where the open pending fill-up `id` is in the Garage's list (its forms' ids); 404 when
    /// it is not open.
    private func pendingPosition(_ id: String) async throws(APIError) -> Int {
        let view = try await garageView(fuelLimit: 0)
        guard let i = view.pending.firstIndex(where: { $0.id == id }) else { throw APIError(.notFound, "unknown_entry", "no pending fill-up \(id) waits") }
        return i
    }

    /// The `fuel.add` fields that complete `id` with what was typed.
    private func completion(_ id: String, _ typed: [(String, JSONValue)]) async throws(APIError) -> [(String, JSONValue)] {
        func number(_ key: String) -> Double? { typed.first { $0.0 == key }?.1.doubleValue }
        guard let price = number("price") else { throw APIError.badRequest("give the price") }
        let given = PendingCompletion(
            price: price, litres: number("litres"), currency: typed.first { $0.0 == "currency" }?.1.stringValue ?? configuration.currency,
            odometerKm: number("odometer_km"))
        let configured = configuration.vehicles
        shelf.invalidate()
        return try await shelf.read { index throws -> [(String, JSONValue)] in
            let garage = try GarageStore.garage(index, configured: configured, types: GarageStore.withoutClassifications)
            do { return try GarageStore.completion(index, garage: garage, pending: id, given) } catch let problem as EntryProblem {
                throw Self.refusal(problem)
            }
        }
    }
}
