// SPDX-License-Identifier: MIT
internal import HTTPTypes
internal import LogbookCore
internal import LogbookRecords

/// One input of a page's form: the request field it fills (a field of ``EntryCommand``'s
/// table), its label, and how the typed text becomes the field's value. The same value is
/// used to render the input and to read it back, so a form and its handler cannot disagree.
struct FormInput: Sendable {
    enum Widget: Sendable {
        case text(maxLength: Int)
        case number
        case integer
        /// Sent as `on` when ticked; a hidden `off` before it says the box was on the form.
        case checkbox
        /// A `datetime-local` input (the Pi's zone); seconds for a split.
        case time(seconds: Bool)
        /// One of the words; `blank` is the label of "not given" (nil: one must be chosen).
        case choice([String], blank: String?)
        /// The registry's active vehicles; `blank` as for a choice.
        case vehicle(blank: String?)
    }

    var name: String
    var label: String
    var widget: Widget
    var required = false
    /// Spans the form's whole width.
    var wide = false
    /// The element id's suffix after the form's id (default: the name).
    var key: String?
    var hint: String?
    /// The system distances and volumes are typed and shown in (``FormSpec/in(_:)``); the
    /// request carries km and litres whatever it is.
    var units = UnitSystem.metric

    init(
        _ name: String, _ label: String, _ widget: Widget, required: Bool = false, wide: Bool = false, key: String? = nil,
        hint: String? = nil
    ) {
        self.name = name
        self.label = label
        self.widget = widget
        self.required = required
        self.wide = wide
        self.key = key
        self.hint = hint
    }

    /// The input for field `name` of `command`, its widget from the field's kind.
    static func field(_ command: String, _ name: String, _ label: String, required: Bool = false, wide: Bool = false, key: String? = nil)
        -> FormInput
    {
        let kind = EntryCommand.named(command)?.requestFields.first { $0.name == name }?.kind
        let widget: Widget =
            switch kind {
            case .text(let max): .text(maxLength: max)
            case .id: .text(maxLength: 32)
            case .vin: .text(maxLength: 17)
            case .currency: .text(maxLength: 3)
            case .number: .number
            case .integer, .trip: .integer
            case .bool: .checkbox
            case .time: .time(seconds: false)
            case .choice(let words): .choice(words, blank: required ? nil : "—")
            case nil: .text(maxLength: 200)
            }
        return FormInput(name, label, widget, required: required, wide: wide, key: key)
    }

    /// The request value of what was typed; nil when the input was left empty.
    func value(in form: FormFields) throws(APIError) -> JSONValue? {
        if case .checkbox = widget {
            let sent = form.values(name)
            if sent.contains("on") { return .bool(true) }
            return sent.isEmpty ? nil : .bool(false)
        }
        guard let text = form[name]?.trimmed, !text.isEmpty else { return nil }
        switch widget {
        case .number:
            // The CLI's parser: a decimal comma where unambiguous (60,5), no thousands separators.
            guard let n = DecimalInput.parse(text) else { throw APIError.badRequest("\(label): \"\(text)\" is not a number") }
            return units.journalFields([(name, .number(n))])[0].1
        case .integer:
            guard let n = Int(text) else { throw APIError.badRequest("\(label): \"\(text)\" is not a whole number") }
            return .number(Double(n))
        case .time:
            do {
                return .string(ISO8601.format(try LocalTime.parse(text)))
            } catch {
                throw APIError.badRequest("\(label): \(error.message)")
            }
        default:
            return .string(text)
        }
    }

    /// What the input shows for a stored value (an amendment's form starts from the record).
    func text(of value: JSONValue?) -> String? {
        guard let value, !value.isNull else { return nil }
        switch widget {
        case .checkbox: return value.boolValue == true ? "on" : "off"
        case .time(let seconds): return value.stringValue.flatMap(ISO8601.parse).map { LocalTime.inputValue($0, seconds: seconds) }
        default:
            if let n = value.doubleValue { return EntryField.text(shown(n)) }
            return value.stringValue
        }
    }

    /// A stored km or litres value in ``units`` (two decimals in miles or gallons).
    private func shown(_ n: Double) -> Double {
        guard units == .imperial else { return n }
        if UnitSystem.distanceKeys.contains(name) { return (units.distance(n * 1000) * 100).rounded() / 100 }
        if UnitSystem.volumeKeys.contains(name) { return (units.volume(n) * 100).rounded() / 100 }
        return n
    }

    /// The text the form sent for this input (a checkbox: `on` or `off`), for showing it again.
    func typed(in form: FormFields) -> String? {
        if case .checkbox = widget {
            let sent = form.values(name)
            return sent.contains("on") ? "on" : sent.isEmpty ? nil : "off"
        }
        return form[name]
    }
}

/// A page's form: its inputs, and how its post becomes a command's request.
struct FormSpec: Sendable {
    var inputs: [FormInput]

    init(_ inputs: [FormInput]) { self.inputs = inputs }

    /// The request fields of what was typed (empty inputs left out).
    func request(_ form: FormFields) throws(APIError) -> [(String, JSONValue)] {
        var out: [(String, JSONValue)] = []
        for input in inputs {
            if let v = try input.value(in: form) { out.append((input.name, v)) }
        }
        return out
    }

    /// Only the inputs whose text differs from what the form showed for `current` (an
    /// amendment carries what changed; an input left empty keeps the value).
    func changes(_ form: FormFields, from current: JSONValue) throws(APIError) -> [(String, JSONValue)] {
        var out: [(String, JSONValue)] = []
        for input in inputs {
            guard let typed = input.typed(in: form), typed.trimmed != (input.text(of: current[input.name]) ?? "") else { continue }
            if let v = try input.value(in: form) { out.append((input.name, v)) }
        }
        return out
    }

    /// What was typed, by name, to show again after a refusal.
    func typed(_ form: FormFields) -> [String: String] {
        var out: [String: String] = [:]
        for input in inputs { if let t = input.typed(in: form) { out[input.name] = t } }
        return out
    }

    /// The form's values for a stored record (an amendment's starting point).
    func values(of record: JSONValue) -> [String: String] {
        var out: [String: String] = [:]
        for input in inputs { if let t = input.text(of: record[input.name]) { out[input.name] = t } }
        return out
    }
}
