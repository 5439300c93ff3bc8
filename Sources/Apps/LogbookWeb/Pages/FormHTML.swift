// SPDX-License-Identifier: MIT
internal import LogbookCore
internal import LogbookGarage
internal import LogbookRecords

/// The pieces every write page is made of: a form from its ``FormSpec``, the notice after a
/// write or a refusal, and the history of a record. Plain HTML that works without script;
/// every value goes through ``HTML/escape(_:)``; forms carry the `{{csrf}}` placeholder the
/// page fills in.
enum FormHTML {
    /// A form posting to `action`: the inputs with `values` (what was typed, or the record);
    /// the inputs' ids are `<prefix>-<key>` (the prefix defaults to the form's id).
    static func form(
        id: String, action: String, spec: FormSpec, values: [String: String], vehicles: [GarageVehicle], submit: String,
        style: String = "primary", extra: String = "", prefix: String? = nil
    ) -> String {
        var inputs = ""
        for input in spec.inputs { inputs += self.input(input, form: prefix ?? id, value: values[input.name], vehicles: vehicles) + "\n" }
        return """
            <form method="post" action="\(HTML.escape(action))" class="filters" id="\(id)">
            <input type="hidden" name="csrf" value="{{csrf}}">
            \(inputs)\(extra)
            <button type="submit" class="\(style) wide">\(HTML.escape(submit))</button>
            </form>
            """
    }

    /// One labelled input.
    static func input(_ i: FormInput, form: String, value: String?, vehicles: [GarageVehicle]) -> String {
        let id = "\(form)-\(i.key ?? i.name)"
        let name = HTML.escape(i.name), label = HTML.escape(i.label)
        let required = i.required ? " required" : ""
        let v = HTML.escape(value ?? "")
        let hint = i.hint.map { "<span class=\"muted small\">\(HTML.escape($0))</span>" } ?? ""
        let control: String
        switch i.widget {
        case .checkbox:
            let checked = value == "on" ? " checked" : ""
            return "<div class=\"wide check\"><input type=\"hidden\" name=\"\(name)\" value=\"off\">"
                + "<input type=\"checkbox\" id=\"\(id)\" name=\"\(name)\" value=\"on\"\(checked)><label for=\"\(id)\">\(label)</label>\(hint)</div>"
        case .text(let max):
            control = "<input id=\"\(id)\" name=\"\(name)\" maxlength=\"\(max)\"\(required) value=\"\(v)\">"
        case .number:
            control = "<input id=\"\(id)\" name=\"\(name)\" inputmode=\"decimal\"\(required) value=\"\(v)\">"
        case .integer:
            control = "<input id=\"\(id)\" name=\"\(name)\" inputmode=\"numeric\"\(required) value=\"\(v)\">"
        case .time(let seconds):
            control = "<input id=\"\(id)\" name=\"\(name)\" type=\"datetime-local\"\(seconds ? " step=\"1\"" : "")\(required) value=\"\(v)\">"
        case .choice(let words, let blank):
            control = "<select id=\"\(id)\" name=\"\(name)\"\(required)>\(options(words.map { ($0, $0) }, blank: blank, selected: value))</select>"
        case .vehicle(let blank):
            var pairs = vehicles.filter { !$0.retired }.map { ($0.id, $0.name) }
            // A vehicle retired since keeps its place in a form that shows it.
            if let value, !pairs.contains(where: { $0.0 == value }) { pairs.append((value, value)) }
            control = "<select id=\"\(id)\" name=\"\(name)\">\(options(pairs, blank: blank, selected: value))</select>"
        }
        return "<div\(i.wide ? " class=\"wide\"" : "")><label for=\"\(id)\">\(label)</label>\(control)\(hint)</div>"
    }

    static func options(_ pairs: [(String, String)], blank: String?, selected: String?) -> String {
        var out = blank.map { "<option value=\"\"\(selected == nil || selected == "" ? " selected" : "")>\(HTML.escape($0))</option>" } ?? ""
        for (value, text) in pairs {
            out += "<option value=\"\(HTML.escape(value))\"\(value == selected ? " selected" : "")>\(HTML.escape(text))</option>"
        }
        return out
    }

    /// The notice at the top of a page: what was done, or why it was refused (the message
    /// the CLI prints).
    static func notice(_ notice: PageNotice?) -> String {
        guard let notice else { return "" }
        let tone = notice.good ? "good" : "bad", role = notice.good ? "status" : "alert"
        return "<p class=\"notice \(tone)\" role=\"\(role)\" id=\"notice\">\(HTML.escape(notice.text))</p>"
    }

    /// Every change of a record or a trip, oldest first: when (local time), what
    /// (``RecordEntry/summary``), from where (`cli`, `web`, `config`…).
    static func history(_ changes: [RecordedEntry], id: String = "history", after end: GPSTime? = nil) -> String {
        guard !changes.isEmpty else { return "<p class=\"muted small\" id=\"\(id)-empty\">No changes since it was recorded.</p>" }
        var rows = ""
        for c in changes {
            var when = "–"
            if let at = c.recordedAt { when = LocalTime.text(at) }
            var delay = ""
            if let end, let at = c.recordedAt, at > end { delay = "<br><span class=\"muted small\">\(HTML.escape(Format.durationWords(at.seconds(since: end)))) after the trip</span>" }
            rows += "<tr><td>\(HTML.escape(when))\(delay)</td><td>\(HTML.escape(c.entry.summary))</td><td>\(HTML.escape(c.entry.origin))</td></tr>\n"
        }
        return """
            <table id="\(id)"><thead><tr><th>When</th><th>Change</th><th>By</th></tr></thead>
            <tbody>
            \(rows)</tbody></table>
            """
    }
}

/// What a page says at its top after a write: done, or refused and why.
struct PageNotice: Sendable {
    var good: Bool
    var text: String
}

/// What a refused form comes back with: which form, what was typed, and why.
struct FormFailure: Sendable {
    var form: String
    var typed: [String: String]
    var message: String

    /// The values a form shows: what was typed when it is the form that failed, else `fallback`.
    func values(for form: String, _ fallback: [String: String]) -> [String: String] { self.form == form ? typed : fallback }
}

extension Optional where Wrapped == FormFailure {
    /// The values a form shows: what was typed when it is the form that failed, else `fallback`.
    func values(for form: String, _ fallback: [String: String] = [:]) -> [String: String] {
        self?.values(for: form, fallback) ?? fallback
    }

    /// The page's notice: the refusal, else `done`.
    func notice(or done: String?) -> PageNotice? {
        if let self { return PageNotice(good: false, text: self.message) }
        return done.map { PageNotice(good: true, text: $0) }
    }
}
