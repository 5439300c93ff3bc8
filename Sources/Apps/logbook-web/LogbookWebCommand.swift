// SPDX-License-Identifier: MIT
import ArgumentParser
import Hummingbird
import LogbookConfig
import LogbookCore
import LogbookPOSIX
import LogbookSystemd
import LogbookWeb
import Logging
import ServiceLifecycle
import UnixSignals

#if canImport(Glibc)
    import Glibc
#endif

/// `logbook-web`: the logbook's web app for the phone in the car.
@main
struct LogbookWebCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logbook-web", abstract: "Serve the logbook to a phone: live trip card, trips, JSON API.",
        version: LogbookVersion.line("logbook-web"))

    @Option(name: .customLong("config"), help: "Config file (default /etc/logbook/logbookd.toml if present).")
    var configFile: String?

    @Option(name: .customLong("listen"), help: "Address to listen on, HOST:PORT (default 127.0.0.1:8080).")
    var listen: String?

    @Option(name: .customLong("state-dir"), help: "logbookd's state directory (journal, index).")
    var stateDir: String?

    @Option(name: .customLong("runtime-dir"), help: "logbookd's runtime directory (live.json, control socket).")
    var runtimeDir: String?

    func run() async throws {
        let environment = ProcessEnvironment.current()
        // A SIGHUP reloads the configuration (ReloadOnHangup): never the default, which ends the process.
        signal(SIGHUP, SIG_IGN)
        let (file, overrides) = (configFile, WebConfiguration.Overrides(listen: listen, stateDirectory: stateDir, runtimeDirectory: runtimeDir))
        let load: @Sendable () throws(ConfigError) -> WebConfiguration = { [environment] () throws(ConfigError) in
            try WebConfiguration.load(file: file, environment: environment, overrides: overrides)
        }
        let configuration: WebConfiguration
        do {
            configuration = try load()
        } catch {
            printError("logbook-web: config error: \(error)")
            throw ExitCode(78)
        }
        let level = Logger.Level(rawValue: configuration.logLevel) ?? .info
        let toJournal = SystemdNotifier.stderrIsJournal
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler =
                toJournal ? JournaldLogHandler(label: label, identifier: "logbook-web") : StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "logbook-web")
        let notifier = SystemdNotifier()
        let login = configuration.requiresLogin ? "password required" : "no password (loopback only)"
        let web: WebApp
        do {
            web = try WebApp(configuration: configuration, logger: logger)
        } catch {
            // The sessions file: without it a logout would not outlive a restart.
            printError("logbook-web: config error: web.state_dir: cannot keep logouts in \(configuration.sessionsPath): \(error)")
            throw ExitCode(78)
        }
        let app = buildApplication(web) { address in
            let where_ = address.map { "\($0)" } ?? "\(configuration.listen)"
            logger.info("web: listening", metadata: ["address": "\(where_)", "login": "\(login)"])
            notifier.ready(status: "serving on \(configuration.listen), \(login)")
        }
        // The reloader is shut down first (the reverse order), then the server.
        let group = ServiceGroup(
            configuration: .init(
                services: [app, ReloadOnHangup(app: web, load: load)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        do {
            try await group.run()
        } catch {
            printError("logbook-web: \(error)")
            throw ExitCode(1)
        }
        notifier.stopping()
    }
}

func printError(_ text: String) {
    let bytes = Array((text + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
}
