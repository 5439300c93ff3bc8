// SPDX-License-Identifier: MIT
package import LogbookCore

/// A write command of the control socket and the arguments it accepts.
///
/// The server checks a request against this before the handler sees it, so handlers can
/// trust the types of the fields they read. New commands (vehicles, fuel…) are one entry
/// in ``ControlHandler/commands`` plus a case in the handler's `execute`.
package struct ControlCommand: Sendable {
    /// The JSON type an argument must have.
    package enum Kind: Sendable {
        case string, number, bool, object, array
        /// A trip number: a whole number, or its decimal text.
        case tripNumber

        var name: String {
            switch self {
            case .string: "a string"
            case .number: "a number"
            case .bool: "a boolean"
            case .object: "an object"
            case .array: "an array"
            case .tripNumber: "a trip number"
            }
        }

        func matches(_ value: JSONValue) -> Bool {
            switch (self, value) {
            case (.string, .string), (.number, .number), (.bool, .bool), (.object, .object), (.array, .array): true
            case (.tripNumber, .number(let n)): n >= 1 && n == n.rounded()
            case (.tripNumber, .string(let s)): !s.isEmpty && s.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
            default: false
            }
        }
    }

    /// One request field besides `cmd` and `id`.
    package struct Argument: Sendable {
        package var name: String
        package var kind: Kind
        package var required: Bool

        package init(_ name: String, _ kind: Kind, required: Bool = false) {
            self.name = name
            self.kind = kind
            self.required = required
        }
    }

    /// The `cmd` value, e.g. `trip.start`.
    package var name: String
    package var arguments: [Argument]

    package init(_ name: String, arguments: [Argument] = []) {
        self.name = name
        self.arguments = arguments
    }

    /// `{"cmd":"trip.start","vehicle":"golf"}`: `vehicle` is optional.
    package static let tripStart = ControlCommand("trip.start", arguments: [Argument("vehicle", .string)])
    /// `{"cmd":"trip.stop"}`.
    package static let tripStop = ControlCommand("trip.stop")
    /// The write commands every daemon has.
    package static let builtIn = [tripStart, tripStop]

    /// Why `request` does not fit this command, or nil when it does.
    ///
    /// Unknown fields are refused so a misspelt argument is not silently ignored; a `null`
    /// argument counts as absent.
    package func problem(with request: JSONValue) -> String? {
        guard case .object(let members) = request else { return "a request is a JSON object" }
        for (key, value) in members where key != "cmd" && key != "id" {
            guard let argument = arguments.first(where: { $0.name == key }) else {
                return "\(name) has no field \"\(key)\""
            }
            if !value.isNull, !argument.kind.matches(value) {
                return "\"\(key)\" must be \(argument.kind.name)"
            }
        }
        for argument in arguments where argument.required && (request[argument.name]?.isNull ?? true) {
            return "\(name) needs \"\(argument.name)\""
        }
        return nil
    }
}
