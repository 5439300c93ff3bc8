// SPDX-License-Identifier: MIT
public import LogbookCore

/// `logbook-uplink`'s command line (``LongOptions``, not ArgumentParser: the uplink runs for as
/// long as the car does; docs/memory.md): six options and a flag, or `witness` with its two.
public struct UplinkArguments: Equatable, Sendable {
    public var configFile: String?
    public var overrides = UplinkConfiguration.Overrides()
    public var exitWhenIdle = false

    public init(configFile: String? = nil, overrides: UplinkConfiguration.Overrides = .init(), exitWhenIdle: Bool = false) {
        self.configFile = configFile
        self.overrides = overrides
        self.exitWhenIdle = exitWhenIdle
    }

    /// What the command line asks for.
    public enum Request: Equatable, Sendable {
        case run(UplinkArguments)
        /// `witness --store URL --device ID`.
        case witness(store: String, device: String)
        /// Help: the text to print.
        case help(String)
        /// `--version`: print ``versionLine``.
        case version
    }

    /// What `logbook-uplink --version` prints.
    public static let versionLine = LogbookVersion.line("logbook-uplink")

    public static let usage = """
        USAGE: logbook-uplink [--config FILE] [--state-dir DIR] [--journal-dir DIR] [--live-file FILE] [--device-id ID] [--log-level LEVEL] [--exit-when-idle]
               logbook-uplink witness --store URL --device ID

        Stream the trip journal to an MQTT broker (Home Assistant), a fleet PostgreSQL and
        OwnTracks, Overland or OsmAnd servers.

        OPTIONS:
          --config FILE         Config file (default /etc/logbook/logbookd.toml if present).
          --state-dir DIR       The uplink's state directory (cursors).
          --journal-dir DIR     The journal to follow (default <state_dir of logbookd>/journal).
          --live-file FILE      logbookd's live.json (default <runtime_dir>/live.json).
          --device-id ID        Device id (default: derived from the journal's public key).
          --log-level LEVEL     trace, debug, info, notice, warning, error or critical.
          --exit-when-idle      Exit once every sink has caught up with the journal.
          --version             Show the version.
          -h, --help            Show this help.

        SUBCOMMANDS:
          witness               Print a device's checkpoints kept in the fleet store, one JSON
                                message per line (logbook-uplink witness --help).
        """

    public static let witnessUsage = """
        USAGE: logbook-uplink witness --store URL --device ID

        Print a device's checkpoints kept in the fleet store, one JSON message per line.

        OPTIONS:
          --store URL           The fleet store: postgres://… or a libpq key=value string.
          --device ID           The device id whose checkpoints to print.
          -h, --help            Show this help.
        """

    /// Parses the arguments after the program name.
    public static func parse(_ arguments: [String]) throws(LongOptions.UsageError) -> Request {
        if arguments.first == "witness" {
            switch try LongOptions.parse(arguments.dropFirst(), valued: ["store", "device"]) {
            case .help: return .help(witnessUsage)
            case .version: return .version
            case .run(let o):
                guard let store = o.values["store"] else { throw .init(description: "witness: missing '--store'") }
                guard let device = o.values["device"] else { throw .init(description: "witness: missing '--device'") }
                return .witness(store: store, device: device)
            }
        }
        let valued: Set = ["config", "state-dir", "journal-dir", "live-file", "device-id", "log-level"]
        switch try LongOptions.parse(arguments, valued: valued, flags: ["exit-when-idle"]) {
        case .help: return .help(usage)
        case .version: return .version
        case .run(let o):
            return .run(UplinkArguments(
                configFile: o.values["config"],
                overrides: .init(stateDirectory: o.values["state-dir"], journalDirectory: o.values["journal-dir"],
                                 liveFile: o.values["live-file"], deviceID: o.values["device-id"], logLevel: o.values["log-level"]),
                exitWhenIdle: o.flags.contains("exit-when-idle")))
        }
    }
}
