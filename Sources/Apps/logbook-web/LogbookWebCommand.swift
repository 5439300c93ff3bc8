// SPDX-License-Identifier: MIT
import ArgumentParser
import Hummingbird
import LogbookConfig
import LogbookSystemd
import LogbookWeb
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// `logbook-web`: the logbook's web app for the phone in the car.
@main
struct LogbookWebCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logbook-web", abstract: "Serve the logbook to a phone: live trip card, trips, JSON API.")

    @Option(name: .customLong("config"), help: "Config file (default /etc/logbook/logbookd.toml if present).")
    var configFile: String?

    @Option(name: .customLong("listen"), help: "Address to listen on, HOST:PORT (default 127.0.0.1:8080).")
    var listen: String?

    @Option(name: .customLong("state-dir"), help: "logbookd's state directory (journal, index).")
    var stateDir: String?

    @Option(name: .customLong("runtime-dir"), help: "logbookd's runtime directory (live.json, control socket).")
    var runtimeDir: String?

    func run() async throws {
        var environment: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let pair = String(cString: pointer)
            if let eq = pair.firstIndex(of: "=") { environment[String(pair[..<eq])] = String(pair[pair.index(after: eq)...]) }
            entry += 1
        }
        let configuration: WebConfiguration
        do {
            configuration = try WebConfiguration.load(
                file: configFile, environment: environment,
                overrides: .init(listen: listen, stateDirectory: stateDir, runtimeDirectory: runtimeDir))
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
        let app = buildApplication(configuration: configuration, logger: logger) { address in
            let where_ = address.map { "\($0)" } ?? "\(configuration.listen)"
            logger.info("web: listening", metadata: ["address": "\(where_)", "login": "\(login)"])
            notifier.ready(status: "serving on \(configuration.listen), \(login)")
        }
        do {
            try await app.runService()
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
