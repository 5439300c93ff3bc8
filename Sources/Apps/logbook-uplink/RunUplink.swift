// SPDX-License-Identifier: MIT
import LogbookConfig
import LogbookCore
import LogbookMQTT
import LogbookPOSIX
import LogbookPostgres
import LogbookUplink
import Logging
import ServiceLifecycle
import UnixSignals
#if canImport(Glibc)
    import Glibc
#endif

/// `logbook-uplink`: streams the journal to MQTT (Home Assistant), PostgreSQL and the interop
/// servers until SIGTERM (or, with `--exit-when-idle`, until every sink has caught up).
enum RunUplink {
    /// The process's exit status: 78 for a config error, 75 while the journal does not exist yet.
    static func run(_ arguments: UplinkArguments) async -> Int32 {
        let environment = ProcessEnvironment.current()
        let c: UplinkConfiguration
        do {
            c = try UplinkConfiguration.load(
                file: arguments.configFile, environment: environment, overrides: arguments.overrides)
        } catch {
            printError("logbook-uplink: config error: \(error)")
            return 78
        }
        guard c.mqtt != nil || c.postgres != nil || c.ownTracks != nil || c.overland != nil || c.osmAnd != nil else {
            printError("logbook-uplink: config error: uplink: no sink is set ([uplink.mqtt] host, [uplink.postgres] url, [uplink.owntracks], [uplink.overland] or [uplink.osmand] url)")
            return 78
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
            printError("logbook-uplink: \(error)")
            return 75  // EX_TEMPFAIL: systemd restarts it once the daemon has created the journal
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
            printError("logbook-uplink: \(error)")
            return 78
        }
        do {
            return try await run(configuration: c, device: device, mqtt: transport, postgres: connector, ownTracks: ownTracks,
                                 exitWhenIdle: arguments.exitWhenIdle, logger: logger)
        } catch {
            printError("logbook-uplink: \(error)")
            return 1
        }
    }

    private static func run(configuration c: UplinkConfiguration, device: DeviceIdentity, mqtt transport: MosquittoClient?,
                            postgres connector: PostgresConnector?, ownTracks: MosquittoClient?, exitWhenIdle: Bool,
                            logger: Logger) async throws -> Int32 {
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
        return 0
    }

    static func printError(_ text: String) {
        let bytes = Array((text + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
