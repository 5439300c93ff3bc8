// SPDX-License-Identifier: MIT
package import LogbookCore

/// One field of an entry: its name as stored in the journal and on the control socket,
/// and what values it accepts. The records list their fields (`docs/reference/records.md`).
public struct EntryField: Sendable {
    /// What a value must be.
    public enum Kind: Sendable {
        /// Free text of 1…`maxLength` characters (trimmed).
        case text(maxLength: Int)
        /// An id: 1…32 of `a-z 0-9 _ -`, starting with a letter or digit.
        case id
        /// A finite number in the range.
        case number(ClosedRange<Double>)
        /// A whole number in the range.
        case integer(ClosedRange<Int>)
        case bool
        /// ISO 4217: three letters, stored upper-case.
        case currency
        /// ISO 8601 UTC time, stored in the canonical `…Z` form.
        case time
        /// One of the listed words.
        case choice([String])
        /// A trip number (a positive whole number; as text or a number on the wire).
        case trip
        /// A 17-character vehicle identification number (ISO 3779: digits and capitals but I, O, Q).
        case vin

        /// The JSON type on the control socket (a trip number goes as a number or its text:
        /// ``EntryCommand/draft(_:now:)`` reads either).
        public var isNumber: Bool {
            switch self {
            case .number, .integer: true
            default: false
            }
        }

        public var isBool: Bool { if case .bool = self { true } else { false } }
    }

    public var name: String
    public var kind: Kind

    public init(_ name: String, _ kind: Kind) {
        self.name = name
        self.kind = kind
    }

    /// The value to store for `value`, or why it is refused.
    package func normalized(_ value: JSONValue) throws(EntryProblem) -> JSONValue {
        switch kind {
        case .text(let maxLength):
            guard let text = value.stringValue?.trimmed, !text.isEmpty else { throw .bad("\(name) must be a non-empty string") }
            guard text.count <= maxLength else { throw .bad("\(name) is longer than \(maxLength) characters") }
            guard !text.unicodeScalars.contains(where: { $0.value < 32 }) else { throw .bad("\(name) must not contain control characters") }
            return .string(text)
        case .id:
            guard let text = value.stringValue, EntryField.isID(text) else {
                throw .bad("\(name) must be an id: 1-32 of a-z, 0-9, _ and -, starting with a letter or digit")
            }
            return .string(text)
        case .number(let range):
            guard let n = value.doubleValue, n.isFinite else { throw .bad("\(name) must be a number") }
            guard range.contains(n) else { throw .bad("\(name) must be between \(Self.text(range.lowerBound)) and \(Self.text(range.upperBound)), got \(Self.text(n))") }
            return .number(n)
        case .integer(let range):
            guard let n = value.doubleValue, n.isFinite, n == n.rounded(), let i = Int(exactly: n) else { throw .bad("\(name) must be a whole number") }
            guard range.contains(i) else { throw .bad("\(name) must be between \(range.lowerBound) and \(range.upperBound), got \(i)") }
            return .number(n)
        case .bool:
            guard let b = value.boolValue else { throw .bad("\(name) must be true or false") }
            return .bool(b)
        case .currency:
            guard let text = value.stringValue, text.utf8.count == 3, text.utf8.allSatisfy({ (65...90).contains($0) || (97...122).contains($0) }) else {
                throw .bad("\(name) must be an ISO 4217 code such as EUR, CHF or USD")
            }
            return .string(text.uppercased())
        case .time:
            guard let text = value.stringValue, let time = ISO8601.parse(text) else {
                throw .bad("\(name) must be an ISO 8601 time such as 2026-11-23T09:30:00Z")
            }
            return .string(ISO8601.format(time))
        case .choice(let words):
            guard let text = value.stringValue?.lowercased(), words.contains(text) else {
                throw .bad("\(name) must be one of \(words.joined(separator: ", "))")
            }
            return .string(text)
        case .trip:
            let number = value.doubleValue ?? value.stringValue.flatMap { Double($0) }
            guard let number, number.isFinite, number >= 1, number == number.rounded(), number < 9e15 else {
                throw .bad("\(name) must be a trip number (1 or more), got \(value.serialized)")
            }
            return .number(number)
        case .vin:
            guard let text = value.stringValue else { throw .bad("\(name) must be a vehicle identification number") }
            switch VIN.parse(text) {
            case .success(let vin): return .string(vin.text)
            case .failure(let problem):
                let why =
                    switch problem {
                    case .checkDigit: "its check digit (position 9) does not match"
                    case .length: "not 17 characters"
                    case .character: "I, O and Q and signs are never in a VIN"
                    }
                throw .bad("\(name): \"\(text)\" is not a valid VIN: \(why)")
            }
        }
    }

    package static func isID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard (1...32).contains(bytes.count) else { return false }
        let allowed = { (b: UInt8) in (97...122).contains(b) || (48...57).contains(b) || b == 95 || b == 45 }
        return bytes.allSatisfy(allowed) && bytes[0] != 95 && bytes[0] != 45
    }

    package static func text(_ n: Double) -> String {
        n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
    }
}

extension String {
    package var trimmed: String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }
}
