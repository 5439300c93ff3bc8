// SPDX-License-Identifier: MIT
public import LogbookConfig
public import LogbookCore
public import LogbookRecords
public import Logging

/// Everything `logbookd` is configured with. Defaults are the shipped `config/logbookd.toml`.
///
/// Precedence: command-line flags, then `LOGBOOKD_*` environment variables, then the
/// config file, then these defaults.
public struct Settings: Sendable {
    /// The file `logbookd` reads when `--config` is not given (missing is fine).
    public static let defaultFile = ConfigFile.defaultPath

    /// `gpsd.address`: where gpsd listens.
    public var gpsd = HostPort(host: "127.0.0.1", port: "2947")
    public var stateDirectory = "/var/lib/logbook"
    public var runtimeDirectory = "/run/logbook"
    public var logLevel: Logger.Level = .info
    /// How often `live.json` is replaced (the contract is at least every 2 s).
    public var liveInterval: Duration = .seconds(1)
    /// Group-commit interval of the journal (1–10 s).
    public var commitInterval: Duration = .seconds(5)
    /// `journal.disk_full_buffer_s`: seconds of driving kept in memory while the journal
    /// cannot write (disk full), at the recorded point rate. Default one hour.
    public var diskFullBuffer: Double = 3600
    /// Test hook: SIGUSR1 stalls the pipeline (`LOGBOOKD_DEBUG_STALL_SIGNAL=1`), so the
    /// systemd watchdog test can see a hung daemon restarted. Never set in production.
    public var debugStallSignal = false
    /// Test hook: the trip engine's clock runs this many times faster than the real one
    /// (`LOGBOOKD_DEBUG_CLOCK_SCALE`), so a replay paced N× sees stop and grace timers at the
    /// drive's own pace. Never set in production.
    public var debugClockScale: Double = 1
    /// Test hook: journal segment size in KiB (`LOGBOOKD_DEBUG_SEGMENT_KIB`, 64–4096), so the
    /// disk-full test reaches a rotation quickly. Never set in production.
    public var debugSegmentKiB: Int?
    /// `[[vehicle]]` entries: they seed the vehicle registry (logbookd journals them).
    public var vehicles: [ConfiguredVehicle] = []
    /// `[[source]]` entries: what starts and stops trips.
    public var sources: [SourceConfiguration] = []
    /// `[[rule]]` entries: classification rules, in order (the first match wins), before
    /// those `logbook rules add` journaled.
    public var rules: [ClassificationRule] = []
    /// Trip detection (`[trip]`), docs/architecture.md defaults.
    public var trip = TripEngineConfiguration()
    /// `[trip] trust_system_clock`: once the kernel reports the system clock synchronised
    /// (NTP), judge fixes' times by it, not only by the last fix.
    public var trustSystemClock = true
    /// The control socket (`[control]`): path and the group allowed to use it.
    public var controlSocket: String?
    public var controlGroup: String? = "logbook"
    /// `[hooks]`: shell commands run on trip start and end, and their time limit.
    public var hookOnTripStart: String?
    public var hookOnTripEnd: String?
    public var hookTimeout: Double = 30
    /// `[hooks] on_place_enter` / `on_place_leave`: the car arrived at or left a named place
    /// or a privacy zone.
    public var hookOnPlaceEnter: String?
    public var hookOnPlaceLeave: String?
    /// `[places] hysteresis_m`: how far beyond a place's radius a fix must be before the car
    /// counts as having left it (GPS jitter at the edge makes no events).
    public var placeHysteresis: Double = 50
    /// `[hooks] on_service_due`: run by `logbook dashboard refresh` when a service task
    /// becomes due (logbookd runs that refresh after trip ends and garage writes).
    public var hookOnServiceDue: String?
    /// `[hooks] on_unclassified`: run by `logbook dashboard refresh` when trips wait for a
    /// classification, at most once a day.
    public var hookOnUnclassified: String?
    /// `[hooks] on_fault_code`: an OBD source read a new trouble code or found one cleared.
    public var hookOnFaultCode: String?
    /// `[hooks] on_low_battery`: the battery voltage fell below an OBD source's `low_battery_v`
    /// while parked.
    public var hookOnLowBattery: String?
    /// `[shutdown]`: take a logind "delay" inhibitor lock so a shutdown waits for the trip
    /// to close; `logind_bus` is a D-Bus address instead of the system bus (tests).
    public var logindInhibitor = true
    public var logindBusAddress: String?
    /// `[power] throttled_file`: the Pi's throttled flags; nil looks for the firmware's
    /// `get_throttled`, then the `rpi_volt` hwmon's alarm; "" turns the watch off.
    public var throttledFile: String?
    /// `[power] poll_interval_s`: how often the flags are read.
    public var throttledPollInterval: Duration = .seconds(10)
    /// The file this configuration was read from, if any (children such as the dashboard
    /// refresh get it as `LOGBOOKD_CONFIG`).
    public var configFile: String?

    public init() {}

    /// `<state-dir>/journal`.
    public var journalDirectory: String { stateDirectory + "/journal" }
    /// `<runtime-dir>/live.json`.
    public var liveStatePath: String { runtimeDirectory + "/live.json" }
    /// `[control] socket`, else `<runtime-dir>/control.sock`.
    public var controlSocketPath: String { controlSocket ?? runtimeDirectory + "/control.sock" }


    /// Command-line values that override the file and the environment.
    public struct Overrides: Equatable, Sendable {
        public var gpsd: String?
        public var stateDirectory: String?
        public var runtimeDirectory: String?
        public var logLevel: String?
        public init(gpsd: String? = nil, stateDirectory: String? = nil, runtimeDirectory: String? = nil, logLevel: String? = nil) {
            self.gpsd = gpsd
            self.stateDirectory = stateDirectory
            self.runtimeDirectory = runtimeDirectory
            self.logLevel = logLevel
        }
    }

    /// Loads the configuration.
    ///
    /// - Parameters:
    ///   - file: `--config`; a file named here must exist. Nil reads ``defaultFile`` if present.
    ///   - environment: the process environment (`LOGBOOKD_*` keys are read).
    ///   - overrides: command-line flags.
    /// - Throws: ``ConfigError`` naming the key, variable or flag at fault.
    public static func load(
        file: String?, environment: [String: String], overrides: Overrides = Overrides()
    ) throws(ConfigError) -> Settings {
        let (root, source) = try ConfigFile.load(file: file, environment: environment)
        return try load(root: root, source: source, environment: environment, overrides: overrides)
    }

    /// Loads the configuration from TOML text already in memory (the config fuzzer, tests):
    /// the same parsing and checks as ``load(file:environment:overrides:)``.
    package static func load(
        text: String, file: String, environment: [String: String] = [:]
    ) throws(ConfigError) -> Settings {
        let root = try ConfigValue.parseTOML(text, file: file)
        return try load(root: root, source: file, environment: environment, overrides: Overrides())
    }

    /// Loads from a file already parsed (the web app and the uplink read the same file for
    /// their own tables too).
    package static func load(
        root: ConfigValue?, source: String?, environment: [String: String], overrides: Overrides
    ) throws(ConfigError) -> Settings {
        var env = environment
        // Short aliases documented in docs/architecture.md.
        if let v = environment["LOGBOOKD_GPSD"], env["LOGBOOKD_GPSD_ADDRESS"] == nil { env["LOGBOOKD_GPSD_ADDRESS"] = v }
        var reader = ConfigReader(root: root, file: source, environment: env)
        var config = Settings()
        config.configFile = source
        try config.read(&reader)
        config.debugStallSignal = environment["LOGBOOKD_DEBUG_STALL_SIGNAL"] == "1"
        if let text = environment["LOGBOOKD_DEBUG_CLOCK_SCALE"] {
            guard let scale = Double(text), scale >= 1, scale <= 1000 else {
                throw ConfigError(key: "LOGBOOKD_DEBUG_CLOCK_SCALE", file: nil, problem: "expected a number from 1 to 1000, got \"\(text)\"")
            }
            config.debugClockScale = scale
        }
        if let text = environment["LOGBOOKD_DEBUG_SEGMENT_KIB"] {
            guard let kib = Int(text), kib >= 64, kib <= 4096 else {
                throw ConfigError(key: "LOGBOOKD_DEBUG_SEGMENT_KIB", file: nil, problem: "expected a number from 64 to 4096, got \"\(text)\"")
            }
            config.debugSegmentKiB = kib
        }
        try reader.rejectUnknownKeys(owned: ConfigTables.daemon)
        try config.apply(overrides)
        let runtimeKey = overrides.runtimeDirectory != nil ? "--runtime-dir" : "runtime_dir"
        try SocketPath.check(config.controlSocketPath, key: config.controlSocket != nil ? "control.socket" : runtimeKey, file: source)
        return config
    }

    private mutating func read(_ r: inout ConfigReader) throws(ConfigError) {
        if let s = try r.string("gpsd.address") { gpsd = try Self.endpoint(s, key: "gpsd.address") }
        if let s = try r.string("state_dir") { stateDirectory = try Self.directory(s, key: "state_dir") }
        if let s = try r.string("runtime_dir") { runtimeDirectory = try Self.directory(s, key: "runtime_dir") }
        if let s = try r.string("log_level") { logLevel = try Self.level(s, key: "log_level") }
        if let d = try r.double("live.interval_s", in: 0.2...2) { liveInterval = .milliseconds(Int64(d * 1000)) }
        if let d = try r.double("journal.commit_interval_s", in: 1...10) { commitInterval = .milliseconds(Int64(d * 1000)) }
        if let d = try r.double("journal.disk_full_buffer_s", in: 60...86_400) { diskFullBuffer = d }
        if let s = try r.string("control.socket") { controlSocket = try Self.directory(s, key: "control.socket") }
        if let s = try r.string("control.group") { controlGroup = s.isEmpty ? nil : s }
        hookOnTripStart = try r.string("hooks.on_trip_start")
        hookOnTripEnd = try r.string("hooks.on_trip_end")
        hookOnServiceDue = try r.string("hooks.on_service_due")
        hookOnFaultCode = try r.string("hooks.on_fault_code")
        hookOnUnclassified = try r.string("hooks.on_unclassified")
        hookOnLowBattery = try r.string("hooks.on_low_battery")
        hookOnPlaceEnter = try r.string("hooks.on_place_enter")
        hookOnPlaceLeave = try r.string("hooks.on_place_leave")
        if let d = try r.double("places.hysteresis_m", in: 0...10_000) { placeHysteresis = d }
        if let d = try r.double("hooks.timeout_s", in: 0.1...3600) { hookTimeout = d }
        if let b = try r.bool("shutdown.logind_inhibitor") { logindInhibitor = b }
        logindBusAddress = try r.string("shutdown.logind_bus")
        if let s = try r.string("power.throttled_file") {
            throttledFile = s.isEmpty ? "" : try Self.directory(s, key: "power.throttled_file")
        }
        if let d = try r.double("power.poll_interval_s", in: 0.1...60) { throttledPollInterval = .milliseconds(Int64(d * 1000)) }
        try readVehiclesAndSources(&r)
        try readTripSettings(&r)
        try readPrivacyZones(&r)
        try readRules(&r)
    }

    private mutating func apply(_ o: Overrides) throws(ConfigError) {
        if let s = o.gpsd { gpsd = try Self.endpoint(s, key: "--gpsd") }
        if let s = o.stateDirectory { stateDirectory = try Self.directory(s, key: "--state-dir") }
        if let s = o.runtimeDirectory { runtimeDirectory = try Self.directory(s, key: "--runtime-dir") }
        if let s = o.logLevel { logLevel = try Self.level(s, key: "--log-level") }
    }

    private static func endpoint(_ s: String, key: String) throws(ConfigError) -> HostPort {
        guard let e = HostPort(parsing: s, defaultPort: 2947) else {
            throw ConfigError(key: key, file: nil, problem: "expected HOST:PORT, got \"\(s)\"")
        }
        return e
    }

    private static func directory(_ s: String, key: String) throws(ConfigError) -> String {
        guard s.hasPrefix("/") else {
            throw ConfigError(key: key, file: nil, problem: "must be an absolute path, got \"\(s)\"")
        }
        return s.count > 1 && s.hasSuffix("/") ? String(s.dropLast()) : s
    }

    private static func level(_ s: String, key: String) throws(ConfigError) -> Logger.Level {
        guard let level = Logger.Level(rawValue: s.lowercased()) else {
            let names = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
            throw ConfigError(key: key, file: nil, problem: "expected one of \(names), got \"\(s)\"")
        }
        return level
    }
}
