// SPDX-License-Identifier: MIT
internal import Hummingbird
internal import LogbookCore
internal import LogbookRecords

/// The corrections a person can make to a recorded trip (each a new journal entry, the points
/// never rewritten), as `logbook trips void/restore/assign/merge/split` makes them: void with
/// a reason or restore, give it to another vehicle or name its driver, merge the next trip of
/// the same vehicle into it, split it at a time.
struct TripCorrectionForms {
    var trip: TripOverview
    var next: TripOverview?
    var registry: Registry
    var failure: FormFailure?

    static let classify = FormSpec([
        unchosen(FormInput.field("trip.classify", "class", "Class", required: true, wide: true)),
        FormInput.field("trip.classify", "purpose", "Purpose", wide: true),
        FormInput.field("trip.classify", "partner", "Partner", wide: true),
        FormInput.field("trip.classify", "destination", "Destination", wide: true),
    ])
    /// A required choice that starts unchosen: an unclassified trip preselects no class.
    private static func unchosen(_ input: FormInput) -> FormInput {
        var i = input
        if case .choice(let words, _) = i.widget { i.widget = .choice(words, blank: "Choose a class…") }
        return i
    }
    static let void = FormSpec([FormInput("reason", "Why (a test drive, recorded by mistake…)", .text(maxLength: 200), required: true, wide: true)])
    static let restore = FormSpec([FormInput.field("trip.restore", "reason", "Why", wide: true)])
    static let assign = FormSpec([
        FormInput("vehicle", "Vehicle", .vehicle(blank: "unchanged"), wide: true),
        FormInput.field("trip.assign", "driver", "Driver", wide: true),
    ])
    static let merge = FormSpec([FormInput("with", "Merge this trip with trip number", .integer, required: true, wide: true)])
    static let split = FormSpec([FormInput("at", "Split at (the second part starts here)", .time(seconds: true), required: true, wide: true)])

    /// What the page says after each correction.
    static let notices = [
        "classified": "Classification saved.", "voided": "Trip voided: listed, no longer counted.", "restored": "Trip restored: it counts again.",
        "assigned": "Trip assigned.", "merged": "Trips merged.",
    ]

    func render() -> String {
        let path = "/trips/\(trip.id)"
        let voiding =
            trip.voided
            ? FormHTML.form(id: "restore-form", action: path + "/restore", spec: Self.restore, values: failure.values(for: "restore-form"), vehicles: [], submit: "Restore trip")
            : FormHTML.form(id: "void-form", action: path + "/void", spec: Self.void, values: failure.values(for: "void-form"), vehicles: [], submit: "Void trip", style: "danger")
        var nextText = "There is no later trip of this vehicle to merge with."
        var mergeValues = failure.values(for: "merge-form")
        if let next {
            let when = next.startedAt.map(LocalTime.text) ?? "?"
            nextText = "The next trip of this vehicle is trip \(next.id), started \(when)."
            if failure?.form != "merge-form" { mergeValues["with"] = next.id.description }
        }
        var range = "inside the trip"
        if let s = trip.startedAt, let e = trip.endedAt {
            range = "between \(LocalTime.inputValue(s, seconds: true).replacing("T", with: " ")) and \(LocalTime.inputValue(e, seconds: true).replacing("T", with: " "))"
        }
        let assignValues = failure.values(for: "assign-form", ["driver": trip.driver ?? ""])
        return """
            <section class="card" id="corrections">
            <h2>Correct this trip</h2>
            <p class="muted small">Each correction is a new entry in the journal; the recorded points stay as they are, and the history below lists every change.</p>
            <h3>\(trip.voided ? "Restore" : "Void")</h3>
            \(voiding)
            <h3>Vehicle and driver</h3>
            \(FormHTML.form(id: "assign-form", action: path + "/assign", spec: Self.assign, values: assignValues, vehicles: registry.all, submit: "Assign"))
            <h3>Merge</h3>
            <p class="muted small" id="merge-next">\(HTML.escape(nextText)) Merged, this trip keeps its number.</p>
            \(FormHTML.form(id: "merge-form", action: path + "/merge", spec: Self.merge, values: mergeValues, vehicles: [], submit: "Merge"))
            <h3>Split</h3>
            <p class="muted small">A time \(HTML.escape(range)) (local time): this trip keeps its number up to there, the rest gets a new one.</p>
            \(FormHTML.form(id: "split-form", action: path + "/split", spec: Self.split, values: failure.values(for: "split-form"), vehicles: [], submit: "Split"))
            </section>
            """
    }
}

extension WebApp {
    /// The trip page's forms: classify and every correction, each 303 back to the trip (a
    /// split's second part named) or the page again with the refusal and what was typed.
    func addTripCorrectionForms(to router: Router<WebContext>) {
        let forms: [(String, String, FormSpec, String)] = [
            ("class", "trip.classify", TripCorrectionForms.classify, "classified"), ("void", "trip.void", TripCorrectionForms.void, "voided"),
            ("restore", "trip.restore", TripCorrectionForms.restore, "restored"), ("assign", "trip.assign", TripCorrectionForms.assign, "assigned"),
            ("merge", "trip.merge", TripCorrectionForms.merge, "merged"), ("split", "trip.split", TripCorrectionForms.split, "split"),
        ]
        for (action, command, spec, done) in forms {
            router.post("/trips/:id/\(action)") { request, context -> Response in
                let id = try Self.tripID(context.parameters.get("id"))
                return try await formPost(
                    request, context, form: "\(action)-form", spec: spec, command: command,
                    fields: { (posted) throws(APIError) in
                        let fields = [("trip", JSONValue.number(Double(id.rawValue)))] + (try spec.request(posted))
                        try Self.checkCorrection(command, fields)
                        return fields
                    },
                    done: { reply in
                        let second = reply["fields"]?["new_trip"]?.doubleValue.map { "&new=\(UInt64($0))" } ?? ""
                        return "/trips/\(id)?done=\(done)\(second)"
                    },
                    page: { failure in try await tripPage(context, failure: failure) })
            }
        }
    }

    /// What the web asks beyond the control socket, as `logbook` does: a void says why.
    static func checkCorrection(_ command: String, _ fields: [(String, JSONValue)]) throws(APIError) {
        if command == "trip.void", !fields.contains(where: { $0.0 == "reason" && $0.1.stringValue?.trimmed.isEmpty == false }) {
            throw APIError.badRequest("trip.void needs \"reason\": say why the trip does not count")
        }
    }
}
