// SPDX-License-Identifier: MIT
public import LogbookConfig
import LogbookCore
import LogbookRecords
import LogbookSettings

extension UplinkConfiguration {
    /// Command-line values that override the file and the environment.
    public struct Overrides: Sendable, Equatable {
        public var stateDirectory: String?
        public var journalDirectory: String?
        public var liveFile: String?
        public var deviceID: String?
        public var logLevel: String?
        public init(stateDirectory: String? = nil, journalDirectory: String? = nil, liveFile: String? = nil,
                    deviceID: String? = nil, logLevel: String? = nil) {
            self.stateDirectory = stateDirectory
            self.journalDirectory = journalDirectory
            self.liveFile = liveFile
            self.deviceID = deviceID
            self.logLevel = logLevel
        }
    }

    /// Loads `[uplink]` from the shared file (`file`, else `LOGBOOKD_CONFIG`, else the default
    /// path when present), `LOGBOOKD_UPLINK_*` environment variables and `overrides`.
    ///
    /// - Throws: ``ConfigError`` naming the key, variable or flag at fault.
    public static func load(file: String?, environment: [String: String], overrides: Overrides = Overrides())
        throws(ConfigError) -> UplinkConfiguration
    {
        let (root, source) = try ConfigFile.load(file: file, environment: environment)
        var r = ConfigReader(root: root, file: source, environment: environment)
        var c = UplinkConfiguration()
        let daemonState = try r.string("state_dir").map { s throws(ConfigError) in try path(s, "state_dir") }
        let daemonRuntime = try r.string("runtime_dir").map { s throws(ConfigError) in try path(s, "runtime_dir") }
        if let d = daemonState { c.journalDirectory = d + "/journal" }
        if let d = daemonRuntime { c.liveStatePath = d + "/live.json" }
        if let s = try r.string("uplink.journal_dir") { c.journalDirectory = try path(s, "uplink.journal_dir") }
        if let s = try r.string("uplink.live_file") { c.liveStatePath = try path(s, "uplink.live_file") }
        if let s = try r.string("uplink.state_dir") { c.stateDirectory = try path(s, "uplink.state_dir") }
        if let s = try r.string("uplink.runtime_dir") { c.runtimeDirectory = try path(s, "uplink.runtime_dir") }
        if let s = try r.string("uplink.device_id") { c.deviceID = try deviceID(s, "uplink.device_id") }
        if let s = try r.string("uplink.log_level") { c.logLevel = try level(s, "uplink.log_level") }
        if let d = try r.double("uplink.poll_interval_s", in: 0.05...60) { c.pollInterval = d }
        let tripDefault = try r.string("trip.default_vehicle"), uplinkDefault = try r.string("uplink.default_vehicle")
        let daemon = try Settings.load(root: root, source: source, environment: environment, overrides: .init())
        c.vehicles = daemon.vehicles
        c.privacyZones = Set(daemon.trip.privacyZones.map(\.name))
        // A trip that names no vehicle belongs to the configured default, else to the first
        // configured vehicle: "car" only when none is configured (it was a phantom device in
        // Home Assistant beside the real one).
        if let s = uplinkDefault ?? tripDefault ?? c.vehicles.first?.id { c.defaultVehicle = s }
        c.mqtt = try mqtt(&r)
        c.postgres = try postgres(&r)
        c.ownTracks = try ownTracks(&r, mqtt: c.mqtt != nil)
        c.overland = try overland(&r)
        c.osmAnd = try osmAnd(&r)
        try r.rejectUnknownKeys(owned: ConfigTables.uplink)
        if let s = overrides.stateDirectory { c.stateDirectory = try path(s, "--state-dir") }
        if let s = overrides.journalDirectory { c.journalDirectory = try path(s, "--journal-dir") }
        if let s = overrides.liveFile { c.liveStatePath = try path(s, "--live-file") }
        if let s = overrides.deviceID { c.deviceID = try deviceID(s, "--device-id") }
        if let s = overrides.logLevel { c.logLevel = try level(s, "--log-level") }
        return c
    }

    private static func mqtt(_ r: inout ConfigReader) throws(ConfigError) -> MQTTSettings? {
        let host = try r.string("uplink.mqtt.host")
        var m = MQTTSettings(host: host ?? "")
        if let v = try r.integer("uplink.mqtt.port", in: 1...65535) { m.port = v }
        m.caFile = try r.string("uplink.mqtt.ca_file").map { s throws(ConfigError) in try path(s, "uplink.mqtt.ca_file") }
        m.certFile = try r.string("uplink.mqtt.cert_file").map { s throws(ConfigError) in try path(s, "uplink.mqtt.cert_file") }
        m.keyFile = try r.string("uplink.mqtt.key_file").map { s throws(ConfigError) in try path(s, "uplink.mqtt.key_file") }
        m.username = try r.string("uplink.mqtt.username")
        m.passwordFile = try r.string("uplink.mqtt.password_file").map { s throws(ConfigError) in try path(s, "uplink.mqtt.password_file") }
        m.clientID = try r.string("uplink.mqtt.client_id")
        if let s = try r.string("uplink.mqtt.topic_prefix") { m.topicPrefix = try topic(s, "uplink.mqtt.topic_prefix") }
        if let b = try r.bool("uplink.mqtt.discovery") { m.discovery = b }
        if let s = try r.string("uplink.mqtt.discovery_prefix") { m.discoveryPrefix = try topic(s, "uplink.mqtt.discovery_prefix") }
        if let v = try r.integer("uplink.mqtt.qos", in: 1...2) { m.qos = v }
        if let v = try r.integer("uplink.mqtt.keepalive_s", in: 5...3600) { m.keepalive = v }
        if let v = try r.integer("uplink.mqtt.points_per_message", in: 1...5000) { m.pointsPerMessage = v }
        if let d = try r.double("uplink.mqtt.drain_points_per_s", in: 0...1_000_000) { m.drainRate = d }
        if let d = try r.double("uplink.mqtt.live_interval_s", in: 0.5...60) { m.liveInterval = d }
        if let v = try r.integer("uplink.mqtt.reconnect_max_s", in: 1...3600) { m.reconnectMax = v }
        guard let host else { return nil }
        guard !host.isEmpty else { throw ConfigError(key: "uplink.mqtt.host", file: r.fileName, problem: "must not be empty") }
        if m.certFile != nil, m.keyFile == nil {
            throw ConfigError(key: "uplink.mqtt.key_file", file: r.fileName, problem: "is required with cert_file")
        }
        return m
    }

    private static func postgres(_ r: inout ConfigReader) throws(ConfigError) -> PostgresSettings? {
        let url = try r.string("uplink.postgres.url")
        var p = PostgresSettings(url: url ?? "")
        p.passwordFile = try r.string("uplink.postgres.password_file").map { s throws(ConfigError) in try path(s, "uplink.postgres.password_file") }
        if let v = try r.integer("uplink.postgres.batch_points", in: 1...100_000) { p.batchPoints = v }
        if let d = try r.double("uplink.postgres.drain_points_per_s", in: 0...10_000_000) { p.drainRate = d }
        if let v = try r.integer("uplink.postgres.reconnect_max_s", in: 1...3600) { p.reconnectMax = v }
        guard let url else { return nil }
        guard !url.isEmpty else { throw ConfigError(key: "uplink.postgres.url", file: r.fileName, problem: "must not be empty") }
        return p
    }

    private static func path(_ s: String, _ key: String) throws(ConfigError) -> String {
        guard s.hasPrefix("/") else { throw ConfigError(key: key, file: nil, problem: "must be an absolute path, got \"\(s)\"") }
        return s.count > 1 && s.hasSuffix("/") ? String(s.dropLast()) : s
    }

    private static func deviceID(_ s: String, _ key: String) throws(ConfigError) -> String {
        guard DeviceIdentity.isValid(s) else {
            throw ConfigError(key: key, file: nil, problem: "expected 1-64 of a-z, 0-9, - and _, got \"\(s)\"")
        }
        return s
    }

    private static func topic(_ s: String, _ key: String) throws(ConfigError) -> String {
        guard !s.isEmpty, !s.contains("#"), !s.contains("+"), !s.hasPrefix("/"), !s.hasSuffix("/") else {
            throw ConfigError(key: key, file: nil, problem: "expected a topic without wildcards or outer slashes, got \"\(s)\"")
        }
        return s
    }

    private static func level(_ s: String, _ key: String) throws(ConfigError) -> String {
        let levels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]
        guard levels.contains(s.lowercased()) else {
            throw ConfigError(key: key, file: nil, problem: "expected one of \(levels.joined(separator: ", ")), got \"\(s)\"")
        }
        return s.lowercased()
    }
}
