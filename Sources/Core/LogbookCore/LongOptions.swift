// SPDX-License-Identifier: MIT

/// A command line of long options, parsed by hand for the long-running programs (logbookd,
/// logbook-uplink): ArgumentParser's code, and the regex engine and JSON coder it brings along,
/// would be mapped at every start of a process that lives for days, for a few flags
/// (docs/memory.md). `--name VALUE` or `--name=VALUE` for options that take a value, `--name`
/// for flags, `-h`/`--help` and `--version` anywhere; nothing else.
public struct LongOptions: Equatable, Sendable {
    /// The value of each option given (the last one when given twice).
    public var values: [String: String] = [:]
    /// The flags given.
    public var flags: Set<String> = []

    public init(values: [String: String] = [:], flags: Set<String> = []) {
        self.values = values
        self.flags = flags
    }

    /// What a command line asks for.
    public enum Request: Equatable, Sendable {
        case run(LongOptions)
        case help
        case version
    }

    /// A command line that cannot be run; its description is the message for stderr.
    public struct UsageError: Error, Equatable, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// Parses `arguments` (after the program's name) against the option names (without `--`)
    /// that take a value and the flags.
    public static func parse(
        _ arguments: some Sequence<String>, valued: Set<String>, flags: Set<String> = []
    ) throws(UsageError) -> Request {
        var parsed = LongOptions()
        var rest = Array(arguments)[...]
        while let argument = rest.popFirst() {
            if argument == "-h" || argument == "--help" { return .help }
            if argument == "--version" { return .version }
            guard argument.hasPrefix("--") else {
                throw UsageError(description: "unexpected argument '\(argument)'")
            }
            var name = String(argument.dropFirst(2)), value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if flags.contains(name) {
                guard value == nil else { throw UsageError(description: "'--\(name)' takes no value") }
                parsed.flags.insert(name)
                continue
            }
            guard valued.contains(name) else { throw UsageError(description: "unknown option '--\(name)'") }
            if value == nil {
                guard let next = rest.first, !next.hasPrefix("--") else {
                    throw UsageError(description: "missing value for '--\(name)'")
                }
                value = rest.removeFirst()
            }
            guard let value, !value.isEmpty else { throw UsageError(description: "empty value for '--\(name)'") }
            parsed.values[name] = value
        }
        return .run(parsed)
    }
}
