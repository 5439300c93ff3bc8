// SPDX-License-Identifier: MIT
import ArgumentParser
import LogbookCore

/// A number option as people type it: `--litres 45,3` as well as `45.3` (``DecimalInput``,
/// the web forms' parser too).
struct NumberArgument: ExpressibleByArgument, Sendable {
    let value: Double

    init?(argument: String) {
        guard let value = DecimalInput.parse(argument) else { return nil }
        self.value = value
    }

    static var defaultCompletionKind: CompletionKind { .default }
}

extension JSONValue {
    static func option(_ value: NumberArgument?) -> JSONValue { value.map { .number($0.value) } ?? .null }
}
