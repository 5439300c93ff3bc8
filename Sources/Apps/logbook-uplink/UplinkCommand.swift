// SPDX-License-Identifier: MIT
import ArgumentParser
import LogbookConfig
import LogbookCore
import LogbookMQTT
import LogbookPostgres
import LogbookUplink
import Logging
import ServiceLifecycle
import UnixSignals
#if canImport(Glibc)
    import Glibc
#endif

/// `logbook-uplink`: streams the journal to MQTT (Home Assistant) and PostgreSQL.
struct UplinkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logbook-uplink",
        abstract: "Stream the trip journal to an MQTT broker (Home Assistant) and a fleet PostgreSQL.",
        version: LogbookVersion.line("logbook-uplink"),
        subcommands: [WitnessCommand.self])

    @Option(name: .customLong("config"), help: "Config file (default /etc/logbook/logbookd.toml if present).")
    var configFile: String?

    @Option(name: .customLong("state-dir"), help: "The uplink's state directory (cursors).")
    var stateDir: String?

    @Option(name: .customLong("journal-dir"), help: "The journal to follow (default <state_dir of logbookd>/journal).")
    var journalDir: String?

    @Option(name: .customLong("live-file"), help: "logbookd's live.json (default <runtime_dir>/live.json).")
    var liveFile: String?

    @Option(name: .customLong("device-id"), help: "Device id (default: derived from the journal's public key).")
    var deviceID: String?

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: String?

    @Flag(name: .customLong("exit-when-idle"), help: "Exit once every sink has caught up with the journal.")
    var exitWhenIdle = false

    func run() async throws {
        let environment = Self.environment()
        let c: UplinkConfiguration
        do {
            c = try UplinkConfiguration.load(
                file: configFile, environment: environment,
                overrides: .init(stateDirectory: stateDir, journalDirectory: journalDir, liveFile: liveFile,
                                 deviceID: deviceID, logLevel: logLevel))
        } catch {
            Self.printError("logbook-uplink: config error: \(error)")
            throw ExitCode(78)
        }
        guard c.mqtt != nil || c.postgres != nil || c.ownTracks != nil || c.overland != nil || c.osmAnd != nil else {
            Self.printError("logbook-uplink: config error: uplink: no sink is set ([uplink.mqtt] host, [uplink.postgres] url, [uplink.owntracks], [uplink.overland] or [uplink.osmand] url)")
            throw ExitCode(78)
        }
        let level = Logger.Level(rawValue: c.logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var h = StreamLogHandler.standardError(label: label)
            h.logLevel = level
            return h
        }
        let logger = Logger(label: "logbook-uplink")
        let device: DeviceIdentity
        do { device = try Uplink.identity(configuration: c) } catch {
            Self.printError("logbook-uplink: \(error)")
            throw ExitCode(75)  // EX_TEMPFAIL: systemd restarts it once the daemon has created the journal
        }
        var transport: MosquittoClient?
        var connector: PostgresConnector?
        var ownTracks: MosquittoClient?
        do {
            if let m = c.mqtt {
                let topics = MQTTTopics(prefix: m.topicPrefix, device: device.id)
                transport = try MosquittoClient(MosquittoOptions(
                    host: m.host, port: m.port, clientID: m.clientID ?? "logbook-" + device.id, username: m.username,
                    password: try Uplink.mqttPassword(m, environment: environment), caFile: m.caFile, certFile: m.certFile,
                    keyFile: m.keyFile, keepalive: m.keepalive, availabilityTopic: topics.availability,
                    reconnectMax: m.reconnectMax))
            }
            if let m = c.mqtt, c.ownTracks?.transport == "mqtt" {
                // A connection of its own: the OwnTracks topics go to the same broker.
                ownTracks = try MosquittoClient(MosquittoOptions(
                    host: m.host, port: m.port, clientID: (m.clientID ?? "logbook-" + device.id) + "-owntracks", username: m.username,
                    password: try Uplink.mqttPassword(m, environment: environment), caFile: m.caFile, certFile: m.certFile,
                    keyFile: m.keyFile, keepalive: m.keepalive, availabilityTopic: "logbook/\(device.id)/owntracks/availability",
                    reconnectMax: m.reconnectMax))
            }
            if let p = c.postgres {
                connector = PostgresConnector(url: p.url, password: try Uplink.postgresPassword(p, environment: environment))
            }
        } catch {
            Self.printError("logbook-uplink: \(error)")
            throw ExitCode(78)
        }
        let services = try Uplink.services(
            configuration: c, device: device, mqtt: transport, postgres: connector, ownTracksMQTT: ownTracks,
            exitWhenIdle: exitWhenIdle, logger: logger)
        try transport?.start()
        try ownTracks?.start()
        logger.info("logbook-uplink starting", metadata: [
            "device": "\(device.id)", "journal": "\(c.journalDirectory)",
            "mqtt": "\(c.mqtt.map { "\($0.host):\($0.port)" } ?? "off")", "postgres": "\(c.postgres == nil ? "off" : "on")",
        ])
        let onSuccess: ServiceGroupConfiguration.ServiceConfiguration.TerminationBehavior =
            exitWhenIdle ? .ignore : .gracefullyShutdownGroup
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: services.map { .init(service: $0, successTerminationBehavior: onSuccess) },
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
        transport?.stop()
        ownTracks?.stop()
    }

    static func environment() -> [String: String] {
        var env: [String: String] = [:]
        var p = environ
        while let entry = p.pointee {
            let s = String(cString: entry)
            if let eq = s.firstIndex(of: "=") { env[String(s[..<eq])] = String(s[s.index(after: eq)...]) }
            p += 1
        }
        return env
    }

    static func printError(_ text: String) {
        let bytes = Array((text + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
