// SPDX-License-Identifier: MIT
public import LogbookCore

/// A write command: its control-socket name, the entry it makes and the fields it takes.
///
/// This table, built from the records' schemas, is the one place write commands are defined:
/// the control socket derives its argument checks from it, the web API and the CLI send these
/// commands, and ``draft(_:now:)`` validates a request and builds the entry for the daemon's
/// handler and the CLI's no-daemon path alike.
public struct EntryCommand: Sendable {
    /// The `cmd` value, e.g. `fuel.add`.
    public var name: String
    /// The entry's type (``EntryRecord/type``).
    public var type: String
    public var action: RecordEntry.Action
    /// The request field naming the entry's subject (`vehicle`, `subject`, `trip`, `task`,
    /// `place`); nil when the subject is made from the entry (a fill-up: `<vehicle>@<time>`).
    public var subjectField: String?
    /// Fields that must be present (besides the subject).
    public var required: [String]
    /// Every field the command accepts, in stored order.
    public var fields: [EntryField]

    /// Who made an entry (default `socket`).
    public static let originField = EntryField("origin", .id)

    /// A void or removal takes a reason.
    static let reason = [EntryField("reason", .text(maxLength: 200))]

    public static let all: [EntryCommand] = [
        EntryCommand("vehicle.add", VehicleRecord.self, .add, subject: "vehicle"),
        EntryCommand("vehicle.amend", VehicleRecord.self, .amend, subject: "vehicle"),
        EntryCommand("vehicle.retire", VehicleRecord.self, .void, subject: "vehicle", fields: reason),
        EntryCommand("fuel.add", FuelRecord.self, .add, subject: nil, required: ["vehicle", "odometer_km", "litres", "price", "currency"]),
        EntryCommand("fuel.amend", FuelRecord.self, .amend, subject: "subject"),
        EntryCommand("fuel.void", FuelRecord.self, .void, subject: "subject", fields: reason),
        // A pending fill-up (the OBD source's) is completed by `fuel.add` with `pending`.
        EntryCommand("fuel.dismiss", PendingFillRecord.self, .void, subject: "subject", fields: reason),
        EntryCommand("odometer.add", OdometerRecord.self, .add, subject: nil, required: ["vehicle", "odometer_km"]),
        EntryCommand("odometer.amend", OdometerRecord.self, .amend, subject: "subject"),
        EntryCommand("odometer.void", OdometerRecord.self, .void, subject: "subject", fields: reason),
        EntryCommand("service.add", ServiceTaskRecord.self, .add, subject: "task", required: ["vehicle", "name"]),
        EntryCommand("service.remove", ServiceTaskRecord.self, .void, subject: "task", fields: reason),
        EntryCommand("service.done", ServiceDoneRecord.self, .add, subject: nil, required: ["task"]),
        EntryCommand("place.add", PlaceRecord.self, .add, subject: "place", required: ["lat", "lon"]),
        EntryCommand("place.amend", PlaceRecord.self, .amend, subject: "place"),
        EntryCommand("place.remove", PlaceRecord.self, .void, subject: "place", fields: reason),
        EntryCommand("rule.add", RuleRecord.self, .add, subject: "rule", required: ["class"]),
        EntryCommand("rule.remove", RuleRecord.self, .void, subject: "rule", fields: reason),
        EntryCommand("trip.classify", TripClassRecord.self, .add, subject: "trip", required: ["class"]),
        EntryCommand("trip.void", TripVoidRecord.self, .add, subject: "trip"),
        EntryCommand("trip.restore", TripVoidRecord.self, .void, subject: "trip", fields: reason),
        EntryCommand("trip.assign", TripAssignRecord.self, .add, subject: "trip"),
        EntryCommand("trip.merge", TripMergeRecord.self, .add, subject: "trip", required: ["with"]),
        // `new_trip` is not taken from a client: the journal's writer hands out the number.
        EntryCommand("trip.split", TripSplitRecord.self, .add, subject: "trip", required: ["at"], fields: [EntryField("at", .time)]),
    ]

    init(
        _ name: String, _ record: any EntryRecord.Type, _ action: RecordEntry.Action, subject: String?,
        required: [String] = [], fields: [EntryField]? = nil
    ) {
        self.name = name
        self.type = record.type
        self.action = action
        self.subjectField = subject
        self.required = required
        self.fields = fields ?? record.schema
    }

    /// The command named `name`.
    public static func named(_ name: String) -> EntryCommand? { all.first { $0.name == name } }

    /// Every request field besides `cmd`/`id`, with what it accepts and whether it is required.
    public var requestFields: [(name: String, kind: EntryField.Kind, required: Bool)] {
        var out: [(String, EntryField.Kind, Bool)] = []
        if let subjectField { out.append((subjectField, Self.subjectKind(subjectField), true)) }
        out += fields.map { ($0.name, $0.kind, required.contains($0.name)) }
        out.append((Self.originField.name, Self.originField.kind, false))
        return out
    }

    private static func subjectKind(_ field: String) -> EntryField.Kind {
        switch field {
        case "trip": .trip
        case "subject": .text(maxLength: 80)
        default: .id
        }
    }

    /// Validates `request` (a control-socket request object; `cmd` and `id` are ignored) and
    /// builds the entry. `now` is the default time of a fill-up, a reading or a service done.
    /// - Throws: ``EntryProblem`` (`bad_request`) naming the field at fault.
    public func draft(_ request: JSONValue, now: GPSTime) throws(EntryProblem) -> RecordEntry {
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
        var origin = EntryOrigin.socket
        if let value = request["origin"], !value.isNull { origin = try Self.originField.normalized(value).stringValue ?? origin }
        let entrySubject = subject ?? makeSubject(stored)
        return RecordEntry(type: type, action: action, subject: entrySubject, fields: .object(stored), origin: origin)
    }

    private func readSubject(_ request: JSONValue) throws(EntryProblem) -> String? {
        guard let subjectField else { return nil }
        guard let value = request[subjectField], !value.isNull else { throw .bad("\(name) needs \"\(subjectField)\"") }
        let normalized = try EntryField(subjectField, Self.subjectKind(subjectField)).normalized(value)
        if let n = normalized.doubleValue { return String(UInt64(n)) }
        guard let text = normalized.stringValue else { throw .bad("\(subjectField) must name an entry") }
        return text
    }

    /// Defaults and rules across fields.
    private func complete(_ stored: inout [(String, JSONValue)], now: GPSTime) throws(EntryProblem) {
        let present = Set(stored.map(\.0))
        let has = { (key: String) in present.contains(key) }
        if action == .amend, stored.isEmpty { throw .bad("\(name) needs at least one field to change") }
        if has("lat") != has("lon") { throw .bad("lat and lon go together") }
        if action == .add, type == ServiceTaskRecord.type, !has("every_km"), !has("every_months") {
            throw .bad("a service task needs every_km and/or every_months")
        }
        if action == .add, type == TripAssignRecord.type, !has("vehicle"), !has("driver") {
            throw .bad("trip.assign needs vehicle and/or driver")
        }
        if action == .add, type == RuleRecord.type {
            // The same checks as `[[rule]]`: conditions, weekday names, a possible window.
            let record = try RuleRecord(json: .object(stored))
            do {
                _ = try ClassificationRule(name: "rule", record: record)
            } catch {
                throw .bad("\(error.field): \(error.message)")
            }
        }
        if action == .add, [FuelRecord.type, OdometerRecord.type, ServiceDoneRecord.type].contains(type), !has("at") {
            stored.insert(("at", .string(ISO8601.format(now))), at: 1)
        }
        if action == .add, type == FuelRecord.type {
            if !has("full") { stored.append(("full", .bool(true))) }
            if !has("missed") { stored.append(("missed", .bool(false))) }
            if stored.first(where: { $0.0 == "litres" })?.1.doubleValue == 0 { throw .bad("litres must be more than 0") }
        }
    }

    /// A fill-up's, reading's or service's id: `<vehicle or task>@<compact UTC time>`.
    private func makeSubject(_ stored: [(String, JSONValue)]) -> String {
        let owner = stored.first { $0.0 == "vehicle" || $0.0 == "task" }?.1.stringValue ?? "?"
        let at = stored.first { $0.0 == "at" }?.1.stringValue.flatMap(ISO8601.parse) ?? GPSTime(nanoseconds: 0)
        return FuelRecord.subject(vehicle: owner, at: at)
    }
}
