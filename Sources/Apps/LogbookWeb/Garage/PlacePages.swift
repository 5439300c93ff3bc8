// SPDX-License-Identifier: MIT
internal import Hummingbird
internal import LogbookCore
internal import LogbookRecords
internal import LogbookStore
internal import LogbookGarageStore

/// Named places ("home", "office") that name where trips start and end: the list with a form
/// to add one (typed, or where the car is), and a place's page to move, resize, rename or
/// remove it (`place.add`, `place.amend`, `place.remove`), as `logbook places` does.
enum PlaceForms {
    static func inputs(_ command: String) -> [FormInput] {
        [
            FormInput.field(command, "name", "Name shown", wide: true),
            FormInput.field(command, "lat", "Latitude"),
            FormInput.field(command, "lon", "Longitude"),
            FormInput.field(command, "radius_m", "Radius (m)", wide: true, key: "radius"),
        ]
    }

    static let add = FormSpec(
        [FormInput("place", "Id (a-z, 0-9, _ and -), e.g. home", .text(maxLength: 32), required: true, wide: true, key: "id")] + inputs("place.add"))
    static let edit = FormSpec(inputs("place.amend"))
    static let remove = FormSpec([FormInput.field("place.remove", "reason", "Why", wide: true)])

    static let notices = ["added": "Place added.", "changed": "Place changed.", "removed": "Place removed."]

    /// `/garage/places`.
    static func list(_ places: [Folded<PlaceRecord>], failure: FormFailure?, done: String?, car: (lat: Double, lon: Double)?) -> String {
        var items = ""
        for p in places {
            let link = HTML.escape("/garage/places/" + WebApp.pathEscaped(p.id))
            let where_ = "\(Format.fixed(p.record.latitude, digits: 5)), \(Format.fixed(p.record.longitude, digits: 5)) · \(Format.fixed(p.record.radius, digits: 0)) m"
            items += "<li data-id=\"\(HTML.escape(p.id))\"><a href=\"\(link)\"><strong>\(HTML.escape(p.record.name ?? p.id))</strong></a>"
                + "\(p.voided ? " <span class=\"tag\">removed</span>" : "") <span class=\"muted small\">\(HTML.escape(p.id)) · \(where_)</span></li>"
        }
        let values = failure.values(for: "place-add", ["radius_m": "100"])
        let ticked = failure?.form == "place-add" && failure?.typed["car_position"] == "on"
        return """
            <section class="card">
            <h1>Places</h1>
            \(FormHTML.notice(failure.notice(or: done.flatMap { notices[$0] })))
            \(items.isEmpty ? "<p class=\"muted\" id=\"places-empty\">No named places yet.</p>" : "<ul class=\"plain\" id=\"places\">\(items)</ul>")
            </section>
            <section class="card">
            <h2>Add a place</h2>
            \(FormHTML.form(
                id: "place-add", action: "/garage/places", spec: add, values: values, vehicles: [], submit: "Add place",
                extra: FormHTML.positionPickers(prefix: "place-add", car: car, ticked: ticked)))
            </section>
            """
    }

    /// `/garage/places/ID`.
    static func page(_ p: Folded<PlaceRecord>, failure: FormFailure?, done: String?, car: (lat: Double, lon: Double)?) -> String {
        let path = "/garage/places/" + WebApp.pathEscaped(p.id)
        var forms = "<p class=\"muted\" id=\"removed\">Removed: trips are no longer named after it.</p>"
        if !p.voided {
            forms = """
                <h2>Change</h2>
                \(FormHTML.form(
                    id: "place-edit", action: path, spec: edit, values: failure.values(for: "place-edit", edit.values(of: p.fields)), vehicles: [],
                    submit: "Save changes", extra: FormHTML.positionPickers(prefix: "place-edit", car: car, ticked: false)))
                <h2>Remove</h2>
                \(FormHTML.form(id: "place-remove", action: path + "/remove", spec: remove, values: failure.values(for: "place-remove"), vehicles: [], submit: "Remove place", style: "danger"))
                """
        }
        return """
            <section class="card">
            <h1>\(HTML.escape(p.record.name ?? p.id))</h1>
            <p class="muted small">\(HTML.escape(p.id)) · \(Format.fixed(p.record.latitude, digits: 5)), \(Format.fixed(p.record.longitude, digits: 5)) · \(Format.fixed(p.record.radius, digits: 0)) m</p>
            \(FormHTML.notice(failure.notice(or: done.flatMap { notices[$0] })))
            \(forms)
            </section>
            <section class="card">
            <h2>History</h2>
            \(FormHTML.history(p.history))
            </section>
            """
    }
}

extension WebApp {
    func addPlacePages(to router: Router<WebContext>) {
        router.get("/garage/places") { request, context -> Response in
            try await placeList(context, done: request.uri.queryParameters["done"].map(String.init))
        }
        router.post("/garage/places") { request, context -> Response in
            try await formPost(
                request, context, form: "place-add", spec: PlaceForms.add, command: "place.add",
                fields: { (posted) throws(APIError) in try withCarPosition(try PlaceForms.add.request(posted), posted) },
                done: { reply in "/garage/places/\(Self.pathEscaped(reply["subject"]?.stringValue ?? ""))?done=added" },
                page: { failure in try await placeList(context, failure: failure) })
        }
        router.get("/garage/places/:id") { request, context -> Response in
            try await placePage(context, done: request.uri.queryParameters["done"].map(String.init))
        }
        router.post("/garage/places/:id") { request, context -> Response in
            let id = try Self.pathParameter(context)
            let current = try await places()[id]?.fields ?? .object([])
            return try await formPost(
                request, context, form: "place-edit", spec: PlaceForms.edit, command: "place.amend",
                fields: { (posted) throws(APIError) in
                    [("place", .string(id))] + (try withCarPosition(try PlaceForms.edit.changes(posted, from: current), posted))
                },
                done: { _ in "/garage/places/\(Self.pathEscaped(id))?done=changed" },
                page: { failure in try await placePage(context, failure: failure) })
        }
        router.post("/garage/places/:id/remove") { request, context -> Response in
            let id = try Self.pathParameter(context)
            return try await formPost(
                request, context, form: "place-remove", spec: PlaceForms.remove, command: "place.remove",
                fields: { (posted) throws(APIError) in [("place", .string(id))] + (try PlaceForms.remove.request(posted)) },
                done: { _ in "/garage/places/\(Self.pathEscaped(id))?done=removed" },
                page: { failure in try await placePage(context, failure: failure) })
        }
    }

    /// Every named place with its history, removed ones included.
    func places() async throws(APIError) -> EntryFold<PlaceRecord> {
        try await shelf.read { index throws -> EntryFold<PlaceRecord> in
            var fold = EntryFold<PlaceRecord>()
            try index.forEachEntry(type: PlaceRecord.type) { e in
                fold.apply(RecordedEntry(e))
                return true
            }
            return fold
        }
    }

    private func placeList(_ context: WebContext, failure: FormFailure? = nil, done: String? = nil) async throws -> Response {
        let body = PlaceForms.list(try await places().items, failure: failure, done: done, car: knownCarPosition())
        return page("Places", active: "/garage", context: context, body: body)
    }

    private func placePage(_ context: WebContext, failure: FormFailure? = nil, done: String? = nil) async throws -> Response {
        let id = try Self.pathParameter(context)
        guard let place = try await places()[id] else { throw APIError(.notFound, "unknown_entry", "no place \(id) (see places list)") }
        return page(place.record.name ?? id, active: "/garage", context: context, body: PlaceForms.page(place, failure: failure, done: done, car: knownCarPosition()))
    }
}
