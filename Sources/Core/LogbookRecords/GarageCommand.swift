// SPDX-License-Identifier: MIT
public import LogbookCore

/// A garage write command: its control-socket name, the entry it makes and its fields.
///
/// This table is the one place the entry fields are defined: the control socket derives its
/// argument checks from it, and ``draft(_:now:)`` validates a request and builds the entry,
/// for the daemon's handler and the CLI's no-daemon path alike.
public struct GarageCommand: Sendable {
    /// The `cmd` value, e.g. `fuel.add`.
    public var name: String
    /// The entry's type: `vehicle`, `fuel`, `trip.class`, `odometer`.
    public var type: String
    public var action: GarageEntry.Action
    /// The request field naming the entry's subject (`vehicle`, `subject`, `trip`); nil when
    /// the subject is made from the entry (a fuel log: `<vehicle>@<time>`).
    public var subjectField: String?
    /// Fields that must be present (besides the subject).
    public var required: [String]
    /// Every field the command accepts, in the order they are stored.
    public var fields: [GarageField]

    /// Who made an entry: 1-16 of `a-z` and `-` (default `socket`).
    public static let originField = GarageField("origin", .id)

    public static let all: [GarageCommand] = [
        GarageCommand(name: "vehicle.add", type: "vehicle", action: .add, subjectField: "vehicle", required: [], fields: GarageFields.vehicle),
        GarageCommand(name: "vehicle.amend", type: "vehicle", action: .amend, subjectField: "vehicle", required: [], fields: GarageFields.vehicle),
        GarageCommand(name: "vehicle.retire", type: "vehicle", action: .void, subjectField: "vehicle", required: [], fields: GarageFields.void),
        GarageCommand(
            name: "fuel.add", type: "fuel", action: .add, subjectField: nil,
            required: ["vehicle", "odometer_km", "litres", "price", "currency"], fields: GarageFields.fuel),
        GarageCommand(name: "fuel.amend", type: "fuel", action: .amend, subjectField: "subject", required: [], fields: GarageFields.fuel),
        GarageCommand(name: "fuel.void", type: "fuel", action: .void, subjectField: "subject", required: [], fields: GarageFields.void),
        GarageCommand(name: "trip.classify", type: "trip.class", action: .add, subjectField: "trip", required: ["class"], fields: GarageFields.tripClass),
        GarageCommand(
            name: "odometer.add", type: "odometer", action: .add, subjectField: nil, required: ["vehicle", "odometer_km"],
            fields: GarageFields.odometer),
        GarageCommand(name: "service.add", type: "service", action: .add, subjectField: "task", required: ["vehicle", "name"], fields: GarageFields.service),
        GarageCommand(name: "service.remove", type: "service", action: .void, subjectField: "task", required: [], fields: GarageFields.void),
        GarageCommand(name: "service.done", type: "service.done", action: .add, subjectField: nil, required: ["task"], fields: GarageFields.serviceDone),
        GarageCommand(name: "place.add", type: "place", action: .add, subjectField: "place", required: ["lat", "lon"], fields: GarageFields.place),
        GarageCommand(name: "place.amend", type: "place", action: .amend, subjectField: "place", required: [], fields: GarageFields.place),
        GarageCommand(name: "place.remove", type: "place", action: .void, subjectField: "place", required: [], fields: GarageFields.void),
    ]

    /// The command named `name`.
    public static func named(_ name: String) -> GarageCommand? { all.first { $0.name == name } }

    /// Every request field besides `cmd`/`id` with its JSON type: (name, isNumber, isBool).
    public var requestFields: [(name: String, kind: GarageField.Kind, required: Bool)] {
        var out: [(String, GarageField.Kind, Bool)] = []
        if let subjectField {
            out.append((subjectField, subjectField == "trip" ? .integer(1...Int.max) : subjectField == "subject" ? .text(maxLength: 80) : .id, true))
        }
        out += fields.map { ($0.name, $0.kind, required.contains($0.name)) }
        out.append((Self.originField.name, Self.originField.kind, false))
        return out
    }

    /// Validates `request` (a control-socket request object; `cmd` and `id` are ignored) and
    /// builds the entry. `now` is the default time of a fuel log or reading without `at`.
    public func draft(_ request: JSONValue, now: GPSTime) throws(GarageProblem) -> GarageEntry {
        guard case .object(let members) = request else { throw .bad("a request is a JSON object") }
        let known = Set(requestFields.map(\.name))
        for (key, _) in members where key != "cmd" && key != "id" && !known.contains(key) {
            throw .bad("\(name) has no field \"\(key)\"")
        }
        let subject = try readSubject(request)
        var stored: [(String, JSONValue)] = []
        for field in fields {
            guard let value = request[field.name], !value.isNull else {
                if required.contains(field.name) { throw .bad("\(name) needs \"\(field.name)\"") }
                continue
            }
            stored.append((field.name, try field.normalized(value)))
        }
        try complete(&stored, now: now)
        var origin = "socket"
        if let value = request["origin"], !value.isNull { origin = try Self.originField.normalized(value).stringValue ?? origin }
        let entrySubject = subject ?? makeSubject(stored)
        return GarageEntry(type: type, action: action, subject: entrySubject, fields: .object(stored), origin: origin)
    }

    private func readSubject(_ request: JSONValue) throws(GarageProblem) -> String? {
        guard let subjectField else { return nil }
        guard let value = request[subjectField], !value.isNull else { throw .bad("\(name) needs \"\(subjectField)\"") }
        switch subjectField {
        case "trip":
            return try GarageField("trip", .integer(1...Int(Int64.max))).normalized(value).doubleValue.map { String(Int64($0)) } ?? ""
        case "subject":
            guard let text = value.stringValue, !text.isEmpty, text.utf8.count <= 80 else { throw .bad("subject must name an entry") }
            return text
        default:
            return try GarageField(subjectField, .id).normalized(value).stringValue
        }
    }

    /// Defaults and cross-field rules.
    private func complete(_ stored: inout [(String, JSONValue)], now: GPSTime) throws(GarageProblem) {
        let present = Set(stored.map(\.0))
        let has = { (key: String) in present.contains(key) }
        if action == .amend, stored.isEmpty { throw .bad("\(name) needs at least one field to change") }
        if has("lat") != has("lon") { throw .bad("lat and lon go together") }
        if action == .add, type == "service", !has("every_km"), !has("every_months") {
            throw .bad("a service task needs every_km and/or every_months")
        }
        if action == .add, type == "fuel" || type == "odometer" || type == "service.done" {
            if !has("at") { stored.insert(("at", .string(ISO8601.format(now))), at: 1) }
        }
        if action == .add, type == "fuel" {
            if !has("full") { stored.append(("full", .bool(true))) }
            if !has("missed") { stored.append(("missed", .bool(false))) }
            if stored.first(where: { $0.0 == "litres" })?.1.doubleValue == 0 { throw .bad("litres must be more than 0") }
        }
    }

    /// A fuel log's or reading's id: `<vehicle>@<compact UTC time>`, e.g. `golf@20261123T093000Z`.
    private func makeSubject(_ stored: [(String, JSONValue)]) -> String {
        let vehicle = stored.first { $0.0 == "vehicle" || $0.0 == "task" }?.1.stringValue ?? "?"
        let at = stored.first { $0.0 == "at" }?.1.stringValue ?? ""
        let compact = String(at.unicodeScalars.filter { $0 != "-" && $0 != ":" }.map(Character.init))
        return vehicle + "@" + compact
    }
}
