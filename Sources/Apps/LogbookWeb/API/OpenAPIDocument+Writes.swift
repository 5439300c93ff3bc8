// SPDX-License-Identifier: MIT
internal import LogbookCore
internal import LogbookRecords

extension OpenAPIDocument {
    /// ``base``, then ``records``, then the write operations, laid over each other.
    static func merged() -> JSONValue {
        var document = parsed(base)
        document = overlay(document, parsed(records))
        document = overlay(document, .object([("paths", writePaths())]))
        return document
    }

    /// A hand-written part (`OpenAPITests` checks each parses).
    static func parsed(_ text: String) -> JSONValue {
        do throws(JSONParseError) { return try JSONValue.parse(text) } catch { return .object([]) }
    }

    /// `b` laid over `a`: objects merge member by member, anything else is replaced.
    static func overlay(_ a: JSONValue, _ b: JSONValue) -> JSONValue {
        guard case .object(var list) = a, case .object(let updates) = b else { return b }
        for (key, value) in updates {
            if let i = list.firstIndex(where: { $0.0 == key }) { list[i].1 = overlay(list[i].1, value) } else { list.append((key, value)) }
        }
        return .object(list)
    }

    /// What each write does, for a person.
    static let summaries: [String: String] = [
        "vehicle.add": "Add a vehicle.", "vehicle.amend": "Change a vehicle's details (only the fields sent).",
        "vehicle.retire": "Retire a vehicle (its history stays; pickers no longer offer it).",
        "fuel.add": "Log a fill-up (the vehicle exists and is not retired, the odometer does not go back).",
        "fuel.amend": "Correct a fill-up (only the fields sent; the old values stay in its history).", "fuel.void": "Withdraw a fill-up.",
        "fuel.dismiss": "Dismiss a pending fill-up of the OBD adapter (completing one is a fill-up with `pending` naming it).",
        "odometer.add": "Record an odometer reading.", "odometer.amend": "Correct a reading (only the fields sent).",
        "odometer.void": "Withdraw a mistyped reading.", "service.add": "Add a recurring service task (every_km and/or every_months).",
        "service.done": "Record that a service task was done.", "service.remove": "Remove a service task (its history stays).",
        "place.add": "Add a named place.", "place.amend": "Move, resize or rename a place.", "place.remove": "Remove a named place.",
        "trip.classify": "Classify a trip for the mileage report.", "trip.void": "Void a trip (listed, never counted); a reason is required.",
        "trip.restore": "Restore a voided trip.", "trip.assign": "Give a trip to another vehicle and/or name its driver.",
        "trip.merge": "Merge the next trip of the same vehicle (`with`) into this one; this one keeps its number.",
        "trip.split": "Split a trip at a time inside it: the second part gets a new number (the reply's fields.new_trip).",
    ]

    /// Every ``WriteRoute`` as an operation, its body schema made from the command's fields.
    static func writePaths() -> JSONValue {
        var paths: [(String, [(String, JSONValue)])] = []
        for route in WriteRoute.all {
            let path = route.path.replacing(":id", with: "{id}")
            let method = route.methodName
            if let i = paths.firstIndex(where: { $0.0 == path }) {
                paths[i].1.append((method, operation(route)))
            } else {
                paths.append((path, [(method, operation(route))]))
            }
        }
        return .object(paths.map { ($0.0, .object($0.1)) })
    }

    static func operation(_ route: WriteRoute) -> JSONValue {
        guard let command = EntryCommand.named(route.command) else { return .object([]) }
        var properties: [(String, JSONValue)] = []
        var required: [JSONValue] = []
        for field in command.requestFields where route.bodyFields.contains(field.name) {
            properties.append((field.name, schema(field.kind)))
            if field.required || (command.name == "trip.void" && field.name == "reason") { required.append(.string(field.name)) }
        }
        var body: [(String, JSONValue)] = [("type", .string("object")), ("additionalProperties", .bool(false)), ("properties", .object(properties))]
        if !required.isEmpty { body.append(("required", .array(required))) }
        if command.action == .amend { body.append(("minProperties", .number(1))) }
        var operation: [(String, JSONValue)] = [
            ("summary", .string(summaries[command.name] ?? command.name)),
            ("description", .string("`\(command.name)`, origin `web`: checked as `logbook` checks it, then sent to logbookd (or appended under the journal's lock when no daemon runs).")),
        ]
        if let subject = route.subject {
            let parameter: JSONValue =
                subject == "trip"
                ? .object([("$ref", .string("#/components/parameters/TripID"))])
                : .object([
                    ("name", .string("id")), ("in", .string("path")), ("required", .bool(true)),
                    ("description", .string("The \(subject == "subject" ? "entry" : subject)'s id.")), ("schema", .object([("type", .string("string"))])),
                ])
            operation.append(("parameters", .array([parameter])))
        }
        let content: JSONValue = .object([("application/json", .object([("schema", .object(body))]))])
        operation.append(("requestBody", .object([("required", .bool(!required.isEmpty || command.action == .amend)), ("content", content)])))
        var responses: [(String, JSONValue)] = [
            ("200", .object([
                ("description", .string("Recorded.")),
                ("content", .object([("application/json", .object([("schema", .object([("$ref", .string("#/components/schemas/EntryReply"))]))]))])),
            ]))
        ]
        for (code, name) in [
            ("400", "BadRequest"), ("401", "Unauthorized"), ("403", "Forbidden"), ("404", "NotFound"), ("409", "Conflict"), ("413", "TooLarge"),
            ("415", "UnsupportedType"), ("422", "Unprocessable"), ("429", "TooMany"), ("503", "Unavailable"),
        ] {
            responses.append((code, .object([("$ref", .string("#/components/responses/\(name)"))])))
        }
        operation.append(("responses", .object(responses)))
        return .object(operation)
    }

    /// A field's JSON schema (what ``EntryField`` accepts).
    static func schema(_ kind: EntryField.Kind) -> JSONValue {
        func object(_ members: [(String, JSONValue)]) -> JSONValue { .object(members) }
        switch kind {
        case .text(let max): return object([("type", .string("string")), ("maxLength", .number(Double(max)))])
        case .id: return object([("type", .string("string")), ("pattern", .string("^[a-z0-9][a-z0-9_-]{0,31}$"))])
        case .number(let range): return object([("type", .string("number")), ("minimum", .number(range.lowerBound)), ("maximum", .number(range.upperBound))])
        case .integer(let range):
            return object([("type", .string("integer")), ("minimum", .number(Double(range.lowerBound))), ("maximum", .number(Double(range.upperBound)))])
        case .bool: return object([("type", .string("boolean"))])
        case .currency: return object([("type", .string("string")), ("description", .string("ISO 4217, e.g. EUR."))])
        case .time: return object([("type", .string("string")), ("description", .string("ISO 8601 UTC, e.g. 2026-11-23T09:30:00Z."))])
        case .choice(let words): return object([("type", .string("string")), ("enum", .array(words.map(JSONValue.string)))])
        case .trip: return object([("type", .string("integer")), ("minimum", .number(1))])
        case .vin: return object([("type", .string("string")), ("description", .string("17 characters: digits and capitals but I, O, Q."))])
        }
    }
}
