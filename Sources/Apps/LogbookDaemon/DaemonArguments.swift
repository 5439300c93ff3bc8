// SPDX-License-Identifier: MIT
public import LogbookSettings
import LogbookCore

/// `logbookd`'s command line: five options, `--help` and `--version` (``LongOptions``, not
/// ArgumentParser: docs/memory.md).
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
        let request: LongOptions.Request
        do { request = try LongOptions.parse(arguments, valued: Set(Option.allCases.map(\.rawValue))) } catch {
            throw UsageError(description: error.description)
        }
        switch request {
        case .help: return .help
        case .version: return .version
        case .run(let options):
            var parsed = DaemonArguments()
            for option in Option.allCases {
                if let value = options.values[option.rawValue] { option.store(value, in: &parsed) }
            }
            return .run(parsed)
        }
    }

    private enum Option: String, CaseIterable {
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
