// SPDX-License-Identifier: MIT
public import LogbookRecords

/// Everything `logbook-uplink` is configured with: the `[uplink]` table of the shared
/// `/etc/logbook/logbookd.toml` (plus the daemon's `state_dir`, `runtime_dir` and
/// `[[vehicle]]`, which it only reads). Defaults match the shipped `config/logbookd.toml`.
public struct UplinkConfiguration: Sendable {
    /// The journal followed (read-only): `<state_dir>/journal`, or `[uplink] journal_dir`.
    public var journalDirectory = "/var/lib/logbook/journal"
    /// `live.json` of the daemon: `<runtime_dir>/live.json`, or `[uplink] live_file`.
    public var liveStatePath = "/run/logbook/live.json"
    /// Cursors (persistent): `[uplink] state_dir`.
    public var stateDirectory = "/var/lib/logbook-uplink"
    /// Status for `logbook uplink status` (tmpfs): `[uplink] runtime_dir`.
    public var runtimeDirectory = "/run/logbook-uplink"
    /// Nil: derived from the journal's public key (see ``DeviceIdentity``).
    public var deviceID: String?
    public var logLevel = "info"
    /// Seconds between looks at the journal when there is nothing new.
    public var pollInterval = 1.0
    /// Vehicle for trips whose records name none: `uplink.default_vehicle`, else
    /// `trip.default_vehicle`, else the first `[[vehicle]]`, else "car".
    public var defaultVehicle = "car"
    /// `[[vehicle]]` of the daemon, read by the daemon's parser (``Settings``): they seed the
    /// registry; the journal's `vehicle` entries win (names in Home Assistant, the fleet store).
    public var vehicles: [ConfiguredVehicle] = []
    /// The names of the daemon's `[[privacy_zone]]` tables: their place events carry no
    /// position, so the OwnTracks sink sends no `transition` for them.
    public var privacyZones: Set<String> = []
    /// `[uplink.mqtt]`; nil when the table has no `host`.
    public var mqtt: MQTTSettings?
    /// `[uplink.postgres]`; nil when the table has no `url`.
    public var postgres: PostgresSettings?
    /// `[uplink.owntracks]`, `[uplink.overland]`, `[uplink.osmand]`; nil when not configured.
    public var ownTracks: OwnTracksSettings?
    public var overland: OverlandSettings?
    public var osmAnd: OsmAndSettings?

    public init() {}
}

/// `[uplink.mqtt]`.
public struct MQTTSettings: Sendable, Equatable {
    public var host: String
    public var port: Int = 1883
    /// CA bundle to verify the broker with; setting it turns TLS on.
    public var caFile: String?
    /// Client certificate and key (optional, for brokers that require them).
    public var certFile: String?
    public var keyFile: String?
    public var username: String?
    /// File holding the password (systemd `LoadCredential=`); see ``UplinkConfiguration``.
    public var passwordFile: String?
    /// Default `logbook-<device_id>`.
    public var clientID: String?
    public var topicPrefix = "logbook"
    public var discovery = true
    public var discoveryPrefix = "homeassistant"
    public var qos = 1
    public var keepalive = 60
    /// Points per `points` message.
    public var pointsPerMessage = 500
    /// Backlog drain limit, points per second (0: unlimited).
    public var drainRate = 2000.0
    /// The live topic is published at most this often while driving (seconds).
    public var liveInterval = 2.0
    /// Longest wait between reconnect attempts (seconds); the wait doubles from 1 s.
    public var reconnectMax = 30

    public init(host: String) { self.host = host }
}

/// `[uplink.postgres]`.
public struct PostgresSettings: Sendable, Equatable {
    /// libpq connection string or URI (`postgres://logbook@fleet.example/logbook`).
    public var url: String
    /// File holding the password (systemd `LoadCredential=`).
    public var passwordFile: String?
    /// Points per transaction.
    public var batchPoints = 5000
    /// Backlog drain limit, points per second (0: unlimited).
    public var drainRate = 0.0
    /// Longest wait between reconnect attempts (seconds).
    public var reconnectMax = 30

    public init(url: String) { self.url = url }
}
