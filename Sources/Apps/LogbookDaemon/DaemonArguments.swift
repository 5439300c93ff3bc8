// SPDX-License-Identifier: MIT
public import LogbookSettings
import LogbookCore

/// `logbookd`'s command line: five options, `--help` and `--version`. Parsed by hand rather than with
/// ArgumentParser, whose code (and the regex engine and JSON coder it brings along) the
/// daemon would otherwise map at every start for these few flags (docs/memory.md).
public struct DaemonArguments: Equatable, Sendable {
    public var configFile: String?
    public var overrides = Settings.Overrides()

    public init(configFile: String? = nil, overrides: Settings.Overrides = .init()) {
        self.configFile = configFile
        self.overrides = overrides
    }

    /// What the command line asks for.
    public enum Request: Equatable, Sendable {
        case run(DaemonArguments)
        case help
        /// `--version`: print ``versionLine``.
        case version
    }

    /// What `logbookd --version` prints: `logbookd 0.1.0` (``LogbookVersion``).
    public static let versionLine = LogbookVersion.line("logbookd")

    /// A command line that cannot be run; its description is the message for stderr.
    public struct UsageError: Error, Equatable, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    public static let usage = """
        USAGE: logbookd [--config FILE] [--gpsd HOST:PORT] [--state-dir DIR] [--runtime-dir DIR] [--log-level LEVEL]

        Record car trips from gpsd into a tamper-evident journal.

        OPTIONS:
          --config FILE         Config file (default /etc/logbook/logbookd.toml if present).
          --gpsd HOST:PORT      gpsd address.
          --state-dir DIR       State directory (journal, keys).
          --runtime-dir DIR     Runtime directory (live.json, control socket).
          --log-level LEVEL     trace, debug, info, notice, warning, error or critical.
          --version             Show the version.
          -h, --help            Show this help.
        """

    /// Parses the arguments after the program name: `--name VALUE` or `--name=VALUE`.
    public static func parse(_ arguments: [String]) throws(UsageError) -> Request {
        var parsed = DaemonArguments()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "-h" || argument == "--help" { return .help }
            if argument == "--version" { return .version }
            guard argument.hasPrefix("--") else {
                throw UsageError(description: "unexpected argument '\(argument)'")
            }
            var name = Substring(argument), value: String?
            if let equals = argument.firstIndex(of: "=") {
                name = argument[..<equals]
                value = String(argument[argument.index(after: equals)...])
            }
            guard let option = Option(rawValue: String(name.dropFirst(2))) else {
                throw UsageError(description: "unknown option '\(name)'")
            }
            if value == nil {
                guard let next = rest.first, !next.hasPrefix("--") else {
                    throw UsageError(description: "missing value for '\(name)'")
                }
                value = rest.removeFirst()
            }
            guard let value, !value.isEmpty else { throw UsageError(description: "empty value for '\(name)'") }
            option.store(value, in: &parsed)
        }
        return .run(parsed)
    }

    private enum Option: String {
        case config, gpsd, stateDir = "state-dir", runtimeDir = "runtime-dir", logLevel = "log-level"

        func store(_ value: String, in arguments: inout DaemonArguments) {
            switch self {
            case .config: arguments.configFile = value
            case .gpsd: arguments.overrides.gpsd = value
            case .stateDir: arguments.overrides.stateDirectory = value
            case .runtimeDir: arguments.overrides.runtimeDirectory = value
            case .logLevel: arguments.overrides.logLevel = value
            }
        }
    }
}
