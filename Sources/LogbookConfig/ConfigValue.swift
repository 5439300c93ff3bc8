// SPDX-License-Identifier: MIT
internal import TOMLKit

/// A parsed configuration document, independent of the file format.
package indirect enum ConfigValue: Sendable, Equatable {
    case table([String: ConfigValue])
    case array([ConfigValue])
    case string(String)
    case integer(Int)
    case double(Double)
    case bool(Bool)

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

    /// Parses TOML text.
    ///
    /// - Throws: ``ConfigError`` naming the line and column of a syntax error.
    package static func parseTOML(_ text: String, file: String) throws(ConfigError) -> ConfigValue {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigError(
                key: nil, file: file,
                problem: "syntax error at line \(error.source.begin.line), column \(error.source.begin.column): \(error.description)")
        } catch {
            throw ConfigError(key: nil, file: file, problem: "cannot parse: \(error)")
        }
        return convert(table)
    }

    private static func convert(_ value: any TOMLValueConvertible) -> ConfigValue {
        switch value.type {
        case .table:
            var out: [String: ConfigValue] = [:]
            if let t = value.table { for key in t.keys { if let v = t[key] { out[key] = convert(v) } } }
            return .table(out)
        case .array:
            return .array(value.array.map { $0.map { convert($0) } } ?? [])
        case .string: return .string(value.string ?? "")
        case .int: return .integer(value.int ?? 0)
        case .double: return .double(value.double ?? 0)
        case .bool: return .bool(value.bool ?? false)
        case .date, .time, .dateTime: return .string(String(describing: value))
        }
    }
}
