// SPDX-License-Identifier: MIT
public import LogbookCore

/// One type of entry, as a Swift value: its journal `type`, its fields in stored order with
/// what each accepts, and its JSON coding.
///
/// Every process reads entries through these types (the index, the garage, the report, the web
/// app, the uplink): no reader looks a field up by its name outside this module.
public protocol EntryRecord: Sendable, Hashable {
    /// The journal's `type` string, e.g. `fuel`, `trip.split`.
    static var type: String { get }
    /// The fields in stored order, with what values each accepts.
    static var schema: [EntryField] { get }
    /// Decodes a complete record from its stored fields (an add with its amendments merged).
    /// - Throws: ``EntryProblem`` naming the first missing or malformed field.
    init(fields: FieldReader) throws(EntryProblem)
    /// The stored form, in schema order, without the fields that are not set.
    var fields: JSONValue { get }
}

extension EntryRecord {
    /// Decodes `json` (an object).
    public init(json: JSONValue) throws(EntryProblem) {
        try self.init(fields: FieldReader(json))
    }

    /// The entry that adds this record.
    public func entry(subject: String, origin: String) -> RecordEntry {
        RecordEntry(type: Self.type, action: .add, subject: subject, fields: fields, origin: origin)
    }
}

/// Reads a record's stored fields by name, with their types checked: the one place field names
/// meet values (for the records of this module).
public struct FieldReader: Sendable {
    private var members: [String: JSONValue] = [:]

    /// - Parameter json: an object; anything else reads as no fields.
    public init(_ json: JSONValue) {
        if case .object(let list) = json { for (key, value) in list { members[key] = value } }
    }

    /// The fields of `json` with `changes` laid over them (an amendment).
    public static func merged(_ json: JSONValue, _ changes: JSONValue) -> JSONValue {
        guard case .object(var list) = json else { return changes }
        guard case .object(let updates) = changes else { return json }
        for (key, value) in updates {
            if let i = list.firstIndex(where: { $0.0 == key }) { list[i].1 = value } else { list.append((key, value)) }
        }
        return .object(list.filter { !$0.1.isNull })
    }

    public func string(_ name: String) -> String? { members[name]?.stringValue }
    public func number(_ name: String) -> Double? { members[name]?.doubleValue.flatMap { $0.isFinite ? $0 : nil } }
    public func integer(_ name: String) -> Int? { number(name).flatMap { Int(exactly: $0) } }
    public func bool(_ name: String) -> Bool? { members[name]?.boolValue }
    public func time(_ name: String) -> GPSTime? { string(name).flatMap(ISO8601.parse) }
    public func trip(_ name: String) -> TripID? {
        let n = number(name) ?? string(name).flatMap { Double($0) }
        return n.flatMap { $0 >= 1 && $0 < 9e15 ? TripID(UInt64($0)) : nil }
    }

    public func requiredString(_ name: String) throws(EntryProblem) -> String {
        guard let v = string(name) else { throw .bad("\(name) is missing") }
        return v
    }

    public func requiredNumber(_ name: String) throws(EntryProblem) -> Double {
        guard let v = number(name) else { throw .bad("\(name) is missing") }
        return v
    }

    public func requiredTime(_ name: String) throws(EntryProblem) -> GPSTime {
        guard let v = time(name) else { throw .bad("\(name) is missing") }
        return v
    }

    public func requiredTrip(_ name: String) throws(EntryProblem) -> TripID {
        guard let v = trip(name) else { throw .bad("\(name) is missing") }
        return v
    }
}

/// Builds a record's stored form in schema order, leaving out what is not set.
public struct FieldWriter {
    private var members: [(String, JSONValue)] = []

    public init() {}

    public mutating func set(_ name: String, _ value: String?) { if let value { members.append((name, .string(value))) } }
    public mutating func set(_ name: String, _ value: Double?) { if let value, value.isFinite { members.append((name, .number(value))) } }
    public mutating func set(_ name: String, _ value: Int?) { if let value { members.append((name, .number(Double(value)))) } }
    public mutating func set(_ name: String, _ value: Bool?) { if let value { members.append((name, .bool(value))) } }
    public mutating func set(_ name: String, _ value: GPSTime?) { if let value { members.append((name, .string(ISO8601.format(value)))) } }
    public mutating func set(_ name: String, _ value: TripID?) { if let value { members.append((name, .number(Double(value.rawValue)))) } }

    public var json: JSONValue { .object(members) }
}
