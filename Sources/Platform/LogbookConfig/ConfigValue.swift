// SPDX-License-Identifier: MIT
/// A parsed configuration document, independent of the file format.
package indirect enum ConfigValue: Sendable, Equatable {
    case table([String: ConfigValue])
    case array([ConfigValue])
    case string(String)
    case integer(Int)
    case double(Double)
    case bool(Bool)

    /// The deepest nesting a configuration file may have (arrays, inline tables, dotted keys
    /// and table headers together): far beyond any real file, far below the stack's limit.
    package static let maximumNesting = 64

    /// Human name of the type, for error messages ("expected a string, found an integer").
    package var typeName: String {
        switch self {
        case .table: "a table"
        case .array: "an array"
        case .string: "a string"
        case .integer: "an integer"
        case .double: "a number"
        case .bool: "a boolean"
        }
    }

    /// Parses TOML text (``TOMLParser``: plain Swift, so the daemon links no C++ and no
    /// Foundation for its configuration).
    ///
    /// - Throws: ``ConfigError`` naming the line and column of a syntax error.
    package static func parseTOML(_ text: String, file: String) throws(ConfigError) -> ConfigValue {
        do {
            return try TOMLParser.parse(text)
        } catch {
            throw ConfigError(
                key: nil, file: file, problem: "syntax error at line \(error.line), column \(error.column): \(error.message)")
        }
    }
}
