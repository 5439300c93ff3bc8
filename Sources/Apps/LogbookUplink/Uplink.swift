// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookJournal
public import Logging
public import ServiceLifecycle

/// The builder `logbook-uplink` and the tests call: the services for a configuration and the
/// adapters (libmosquitto, libpq) the caller made.
public enum Uplink {
    /// The device identity: `[uplink] device_id`, or derived from the journal's public key
    /// (the newest segment's, else `journal.pub` next to the journal).
    ///
    /// - Throws: ``UplinkError/system(_:)`` when there is no journal yet.
    public static func identity(configuration c: UplinkConfiguration) throws(UplinkError) -> DeviceIdentity {
        var key: [UInt8]?
        do { key = try JournalReader(directory: c.journalDirectory).publicKey() } catch { key = nil }
        if key == nil {
            let stateDir = String(c.journalDirectory.split(separator: "/", omittingEmptySubsequences: false).dropLast()
                .joined(separator: "/"))
            key = JournalKey.publicKey(stateDirectory: stateDir).map { Array($0.rawRepresentation) }
        }
        guard let key else {
            throw .system("no journal at \(c.journalDirectory) yet (has logbookd run?)")
        }
        return DeviceIdentity(id: c.deviceID ?? DeviceIdentity.derivedID(publicKey: key), publicKey: key)
    }

    /// `journal.pub` of a state directory as raw bytes, nil when missing.
    public static func trustedKey(stateDirectory: String) -> [UInt8]? {
        JournalKey.publicKey(stateDirectory: stateDirectory).map { Array($0.rawRepresentation) }
    }

    /// Reads a one-line secret (a password file or systemd credential), without the newline.
    public static func secret(_ path: String) throws(UplinkError) -> String {
        guard let bytes = try UplinkFile.read(path) else { throw .system("\(path): no such file") }
        var s = String(decoding: bytes, as: UTF8.self)
        while s.hasSuffix("\n") || s.hasSuffix("\r") { s.removeLast() }
        return s
    }

    /// The MQTT password: `password_file`, else the systemd credential `mqtt-password`
    /// (a file of that name in /etc/logbook/uplink-credentials).
    public static func mqttPassword(_ m: MQTTSettings, environment: [String: String]) throws(UplinkError) -> String? {
        if let f = m.passwordFile { return try secret(f) }
        return credential("mqtt-password", environment: environment)
    }

    /// The PostgreSQL password: `password_file`, else the credential `postgres-password`.
    public static func postgresPassword(_ p: PostgresSettings, environment: [String: String]) throws(UplinkError) -> String? {
        if let f = p.passwordFile { return try secret(f) }
        return credential("postgres-password", environment: environment)
    }

    /// A systemd credential: `uplink_<name>` (the unit loads the directory
    /// /etc/logbook/uplink-credentials as `uplink`) or `<name>`; an empty one counts as none.
    static func credential(_ name: String, environment: [String: String]) -> String? {
        guard let dir = environment["CREDENTIALS_DIRECTORY"] else { return nil }
        for file in ["uplink_" + name, name] {
            if let s = try? secret(dir + "/" + file), !s.isEmpty { return s }
        }
        return nil
    }

    /// The services, in start order (the live publisher first, so it stops last and says
    /// `offline` after the sink has finished).
    public static func services(
        configuration c: UplinkConfiguration, device: DeviceIdentity, mqtt: (any MQTTTransport)?, postgres: (any SQLConnector)?,
        ownTracksMQTT: (any MQTTTransport)? = nil, exitWhenIdle: Bool = false, logger: Logger
    ) throws(UplinkError) -> [any Service] {
        try UplinkFile.makeDirectory(c.stateDirectory, mode: 0o750)
        try UplinkFile.makeDirectory(c.runtimeDirectory, mode: 0o755)
        let cursors = CursorStore(directory: c.stateDirectory)
        var out: [any Service] = []
        if let transport = mqtt, let m = c.mqtt {
            let topics = MQTTTopics(prefix: m.topicPrefix, device: device.id)
            let shared = MQTTShared(configured: c.vehicles)
            if !exitWhenIdle {
                out.append(LivePublisher(
                    transport: transport, topics: topics, discoveryPrefix: m.discovery ? m.discoveryPrefix : nil,
                    liveFile: c.liveStatePath, interval: m.liveInterval, shared: shared,
                    defaultVehicle: c.defaultVehicle, logger: logger))
            }
            let sink = MQTTSink(transport: transport, topics: topics, pointsPerMessage: m.pointsPerMessage, qos: m.qos,
                                shared: shared, defaultVehicle: c.defaultVehicle, journalDirectory: c.journalDirectory,
                                ledgerFile: c.stateDirectory + "/ledger-mqtt.json")
            out.append(SinkRunner(
                sink: sink, journalDirectory: c.journalDirectory, cursors: cursors, runtimeDirectory: c.runtimeDirectory,
                device: device,
                // A backlog goes out ten messages per round of acknowledgements.
                settings: RunnerSettings(pollInterval: c.pollInterval, batchPoints: max(m.pointsPerMessage * 10, 5000),
                                         drainRate: m.drainRate, exitWhenIdle: exitWhenIdle),
                logger: logger))
        }
        if let connector = postgres, let p = c.postgres {
            let sink = PostgresSink(connector: connector, device: device, vehicles: c.vehicles, defaultVehicle: c.defaultVehicle,
                                    reconnectMax: Double(p.reconnectMax), logger: logger)
            out.append(SinkRunner(
                sink: sink, journalDirectory: c.journalDirectory, cursors: cursors, runtimeDirectory: c.runtimeDirectory,
                device: device,
                settings: RunnerSettings(pollInterval: c.pollInterval, batchPoints: p.batchPoints, drainRate: p.drainRate,
                                         exitWhenIdle: exitWhenIdle),
                logger: logger))
        }
        out += try interopServices(
            configuration: c, device: device, ownTracksMQTT: ownTracksMQTT, cursors: cursors, exitWhenIdle: exitWhenIdle, logger: logger)
        return out
    }

    /// The OwnTracks, Overland and OsmAnd sinks, each with its runner (cursor, rate limit).
    static func interopServices(
        configuration c: UplinkConfiguration, device: DeviceIdentity, ownTracksMQTT: (any MQTTTransport)?, cursors: CursorStore,
        exitWhenIdle: Bool, logger: Logger
    ) throws(UplinkError) -> [any Service] {
        var sinks: [(any UplinkSink, Int, Double)] = []
        if var o = c.ownTracks {
            if let user = o.username, let file = o.passwordFile {
                o.authorization = "Basic " + Base64.encode(Array("\(user):\(try secret(file))".utf8))
            }
            guard o.transport == "http" || ownTracksMQTT != nil else { throw .system("owntracks: transport mqtt needs a broker connection") }
            let sink = OwnTracksSink(settings: o, device: device.id, defaultVehicle: c.defaultVehicle, stateDirectory: c.stateDirectory,
                                     privacyZones: c.privacyZones, mqtt: o.transport == "mqtt" ? ownTracksMQTT : nil, logger: logger)
            sinks.append((sink, o.batchPoints, o.drainRate))
        }
        if let o = c.overland {
            let sink = OverlandSink(settings: o, device: device.id, defaultVehicle: c.defaultVehicle, stateDirectory: c.stateDirectory, logger: logger)
            sinks.append((sink, max(o.batchPoints * 5, 1000), o.drainRate))
        }
        if let o = c.osmAnd {
            let sink = OsmAndSink(settings: o, device: device.id, defaultVehicle: c.defaultVehicle, stateDirectory: c.stateDirectory, logger: logger)
            sinks.append((sink, o.batchPoints, o.drainRate))
        }
        return sinks.map { sink, batch, drain in
            SinkRunner(
                sink: sink, journalDirectory: c.journalDirectory, cursors: cursors, runtimeDirectory: c.runtimeDirectory, device: device,
                settings: RunnerSettings(pollInterval: c.pollInterval, batchPoints: batch, drainRate: drain, exitWhenIdle: exitWhenIdle),
                logger: logger)
        }
    }
}
