// SPDX-License-Identifier: MIT
package import LogbookConfig
package import LogbookCore
package import LogbookRecords
package import LogbookSettings
internal import LogbookStore
package import LogbookGarage
internal import LogbookGarageStore

/// What `logbook-web` reads from the shared configuration file: its own `[web]` table, the
/// readers' tables (`[index]`, `[units]`, `[places]`) and the shared schema (``Settings``:
/// directories, the control socket, vehicles, `[trip]`), read by the same parser as every process.
///
/// Flags beat `LOGBOOKD_*` variables beat the file beat the defaults, as for the daemon.
package struct WebConfiguration: Sendable {
    /// `[web] listen`: loopback by default; any other address needs a password.
    package var listen = ListenAddress(host: "127.0.0.1", port: 8080)
    /// The shared schema: directories, the control socket, vehicles, `[trip]`.
    package var settings = Settings()
    /// `[web] password_file`.
    package var passwordFile: String?
    /// Where the password came from (`[web] password_file` or a systemd credential).
    package var passwordSource: String?
    /// The password (also accepted as a bearer token); nil: no login (loopback only).
    package var password: String?
    /// `[web] session_days`: how long a login lasts on the phone.
    package var sessionLifetime: Double = 30 * 86_400
    /// `[web] secure_cookies`: mark cookies `Secure` (behind an HTTPS reverse proxy).
    package var secureCookies = false
    /// `[web] log_level`.
    package var logLevel = "info"
    /// `[index] path`, when set.
    package var configuredIndexPath: String?
    /// `[units] system`: `metric` or `imperial`, for what people read (the API stays SI).
    package var imperialUnits = false
    /// `[units] currency`: a fill-up's currency when the form leaves it empty.
    package var currency: String?
    /// The configured unit system.
    package var units: UnitSystem { imperialUnits ? .imperial : .metric }
    /// `[units] time_zone`, else the system's: the zone pages show and forms read times in.
    package var timeZone: TimeZoneRules = .utc
    /// `[[reimbursement]]`: the report's mileage allowances.
    package var reimbursement: [ReimbursementRate] = []
    /// `[places] bundle`: the offline place-name bundle the report names places with.
    package var placesBundle = "/usr/share/logbook/places"
    /// `[web] state_dir`, when set: where the web app keeps its own state (the logouts).
    package var configuredWebStateDirectory: String?
    /// `[web] max_connections`: open connections at most (also bounded by the file limit).
    package var maxConnections = 4096
    /// `[web] header_timeout_s`, `idle_timeout_s`, `body_timeout_s`: see ``ConnectionGuard``.
    package var headerTimeout: Double = 10
    package var idleTimeout: Double = 60
    package var bodyTimeout: Double = 30
    /// `[web] map_tiles` and `map_attribution`: the maps' raster tiles (``MapTiles``).
    package var mapTiles = MapTiles()
    /// Where Debian's `libjs-leaflet` installs Leaflet (served under `/leaflet/`).
    package var leafletDirectory = "/usr/share/javascript/leaflet"

    /// The name of the systemd credential holding the password (`LoadCredential=`).
    package static let credentialName = "web-password"

    /// Command-line values that override the file and the environment.
    package struct Overrides: Sendable {
        package var listen: String?
        package var stateDirectory: String?
        package var runtimeDirectory: String?
        package init(listen: String? = nil, stateDirectory: String? = nil, runtimeDirectory: String? = nil) {
            self.listen = listen
            self.stateDirectory = stateDirectory
            self.runtimeDirectory = runtimeDirectory
        }
    }

    package init() {}

    /// The daemon's state directory: the journal (read, never written) and the index.
    package var stateDirectory: String {
        get { settings.stateDirectory }
        set { settings.stateDirectory = newValue }
    }
    /// The daemon's runtime directory: `live.json` and the control socket.
    package var runtimeDirectory: String {
        get { settings.runtimeDirectory }
        set { settings.runtimeDirectory = newValue }
    }
    /// `[[vehicle]]` of the configuration file (the registry adds those of the journal).
    package var vehicles: [ConfiguredVehicle] {
        get { settings.vehicles }
        set { settings.vehicles = newValue }
    }
    /// `[trip] default_vehicle`: preselected in the picker.
    package var defaultVehicle: String? { settings.trip.defaultVehicle }
    /// `[trip] bridge_gap_s`: no-fix gaps up to this long count as bridged.
    package var maxBridgedGap: Double { settings.trip.maxBridgedGap }
    /// `[control] socket`, else `<runtime-dir>/control.sock`.
    package var controlSocketPath: String { settings.controlSocketPath }
    /// `<runtime-dir>/live.json`.
    package var liveStatePath: String { settings.liveStatePath }
    /// `<state-dir>/journal`.
    package var journalDirectory: String { settings.journalDirectory }
    /// The index file, chosen as the CLI chooses it: `[index] path`, else the system cache for
    /// the default state directory, else `<state-dir>/cache/index.sqlite`.
    package var indexPath: String {
        if let configuredIndexPath { return configuredIndexPath }
        return stateDirectory == "/var/lib/logbook" ? "/var/cache/logbook/index.sqlite" : stateDirectory + "/cache/index.sqlite"
    }
    /// True when a password protects the app.
    package var requiresLogin: Bool { password != nil }
    /// The web app's own state: `[web] state_dir`, else `/var/lib/logbook-web` for the default
    /// state directory (systemd's `StateDirectory=`), else `<state-dir>/web`.
    package var webStateDirectory: String {
        if let configuredWebStateDirectory { return configuredWebStateDirectory }
        return stateDirectory == "/var/lib/logbook" ? "/var/lib/logbook-web" : stateDirectory + "/web"
    }
    /// `<web state dir>/sessions.json`: the sessions ended by logout.
    package var sessionsPath: String { webStateDirectory + "/sessions.json" }

    /// The configured vehicle with `id`.
    package func vehicle(_ id: String?) -> Vehicle? { settings.vehicle(id) }

    /// Loads the configuration and the password.
    ///
    /// - Throws: ``ConfigError`` naming the key: a bad value, an unknown `[web]` key, a
    ///   password file that is missing, empty, too short or readable by everyone, or a
    ///   non-loopback `listen` without a password (`logbook-web` exits 78).
    package static func load(file: String?, environment: [String: String], overrides: Overrides = Overrides()) throws(ConfigError)
        -> WebConfiguration
    {
        let (root, source) = try ConfigFile.load(file: file, environment: environment)
        var reader = ConfigReader(root: root, file: source, environment: environment)
        var config = WebConfiguration()
        config.settings = try Settings.load(
            root: root, source: source, environment: environment,
            overrides: Settings.Overrides(stateDirectory: overrides.stateDirectory, runtimeDirectory: overrides.runtimeDirectory))
        try config.read(&reader, file: source, environment: environment)
        try reader.rejectUnknownKeys(owned: ConfigTables.web.union(ConfigTables.readers))
        // The control socket's length is checked by Settings.load (issue 28, item 8).
        try config.apply(overrides)
        try config.loadPassword(file: source, environment: environment)
        guard config.listen.isLoopback || config.password != nil else {
            throw ConfigError(
                key: "web.password_file", file: source,
                problem: "required to listen on \(config.listen), which is not a loopback address "
                    + "(or pass the systemd credential \(credentialName))")
        }
        return config
    }

    private mutating func read(_ r: inout ConfigReader, file: String?, environment: [String: String]) throws(ConfigError) {
        if let s = try r.string("web.listen") { listen = try Self.address(s, key: "web.listen", file: file) }
        if let d = try r.double("web.session_days", in: 0.01...400) { sessionLifetime = d * 86_400 }
        if let b = try r.bool("web.secure_cookies") { secureCookies = b }
        if let s = try r.string("web.state_dir") { configuredWebStateDirectory = try Self.directory(s, key: "web.state_dir", file: file) }
        if let n = try r.integer("web.max_connections", in: 16...1_000_000) { maxConnections = n }
        if let d = try r.double("web.header_timeout_s", in: 1...600) { headerTimeout = d }
        if let d = try r.double("web.idle_timeout_s", in: 1...3600) { idleTimeout = d }
        if let d = try r.double("web.body_timeout_s", in: 1...3600) { bodyTimeout = d }
        passwordFile = try r.string("web.password_file")
        let tiles = try r.string("web.map_tiles").map { t throws(ConfigError) in try MapTiles.checked(t, key: "web.map_tiles", file: file) }
        mapTiles = MapTiles(template: tiles ?? MapTiles.openStreetMap, attribution: try r.string("web.map_attribution"))
        if let s = try r.string("web.log_level") {
            let levels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]
            guard levels.contains(s.lowercased()) else {
                throw ConfigError(key: "web.log_level", file: file, problem: "expected one of \(levels.joined(separator: ", ")), got \"\(s)\"")
            }
            logLevel = s.lowercased()
        }
        if let s = try r.string("index.path") {
            guard s.hasPrefix("/"), !s.hasSuffix("/") else {
                throw ConfigError(key: "index.path", file: file, problem: "must be an absolute file path, got \"\(s)\"")
            }
            configuredIndexPath = s
        }
        // logbookd's key in the shared `[places]` table: known here for the unknown-key check.
        _ = try r.double("places.hysteresis_m", in: 0...10_000)
        if let s = try r.string("places.bundle") {
            guard s.hasPrefix("/") else {
                throw ConfigError(key: "places.bundle", file: file, problem: "must be an absolute directory path, got \"\(s)\"")
            }
            placesBundle = s
        }
        if let s = try r.string("units.system") {
            guard s == "metric" || s == "imperial" else {
                throw ConfigError(key: "units.system", file: file, problem: "expected \"metric\" or \"imperial\", got \"\(s)\"")
            }
            imperialUnits = s == "imperial"
        }
        if let s = try r.string("units.currency") { currency = try ReaderConfiguration.currency(s, file: file) }
        timeZone = try TimeZoneFile.load(&r, file: file, environment: environment)
        reimbursement = try ReimbursementConfig.load(&r, file: file)
    }

    private mutating func apply(_ o: Overrides) throws(ConfigError) {
        if let s = o.listen { listen = try Self.address(s, key: "--listen", file: nil) }
    }

    private mutating func loadPassword(file: String?, environment: [String: String]) throws(ConfigError) {
        if let path = passwordFile {
            password = try PasswordFile.read(path, key: "web.password_file", file: file, checkMode: true)
            passwordSource = path
        } else if let directory = environment["CREDENTIALS_DIRECTORY"], !directory.isEmpty {
            let path = directory + "/" + Self.credentialName
            if PasswordFile.exists(path) {
                // systemd made this copy (0400, our user): the mode check does not apply.
                password = try PasswordFile.read(path, key: "credential \(Self.credentialName)", file: nil, checkMode: false)
                passwordSource = path
            }
        }
    }

    private static func address(_ s: String, key: String, file: String?) throws(ConfigError) -> ListenAddress {
        guard let a = ListenAddress(parsing: s) else {
            throw ConfigError(key: key, file: file, problem: "expected HOST:PORT (e.g. 127.0.0.1:8080 or [::1]:8080), got \"\(s)\"")
        }
        return a
    }

    private static func directory(_ s: String, key: String, file: String?) throws(ConfigError) -> String {
        guard s.hasPrefix("/") else { throw ConfigError(key: key, file: file, problem: "must be an absolute path, got \"\(s)\"") }
        return s.count > 1 && s.hasSuffix("/") ? String(s.dropLast()) : s
    }
}
