// SPDX-License-Identifier: MIT
import ArgumentParser
import LogbookDaemon
import LogbookSystemd
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// `logbookd`: records trips from gpsd fixes and vehicle signals.
struct LogbookdCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logbookd", abstract: "Record car trips from gpsd into a tamper-evident journal.")

    @Option(name: .customLong("config"), help: "Config file (default /etc/logbook/logbookd.toml if present).")
    var configFile: String?

    @Option(name: .customLong("gpsd"), help: "gpsd address, HOST:PORT.")
    var gpsd: String?

    @Option(name: .customLong("state-dir"), help: "State directory (journal, keys).")
    var stateDir: String?

    @Option(name: .customLong("runtime-dir"), help: "Runtime directory (live.json, control socket).")
    var runtimeDir: String?

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: String?

    func run() async throws {
        // The same file, environment and flags at start and on every SIGHUP reload.
        let (file, environment) = (configFile, ProcessSignals.environment())
        let overrides = DaemonConfiguration.Overrides(gpsd: gpsd, stateDirectory: stateDir, runtimeDirectory: runtimeDir, logLevel: logLevel)
        let load: @Sendable () throws -> DaemonConfiguration = {
            try DaemonConfiguration.load(file: file, environment: environment, overrides: overrides)
        }
        let configuration: DaemonConfiguration
        do {
            configuration = try load()
        } catch {
            printError("logbookd: config error: \(error)")
            throw ExitCode(78)
        }
        let level = LogLevelSwitch(configuration.logLevel)
        let toJournal = SystemdNotifier.stderrIsJournal
        LoggingSystem.bootstrap { label in
            let handler: any LogHandler =
                toJournal ? JournaldLogHandler(label: label, identifier: "logbookd") : StreamLogHandler.standardError(label: label)
            return SwitchableLevelLogHandler(handler, level: level)
        }
        let logger = Logger(label: "logbookd")
        let daemon: Daemon
        do {
            daemon = try Daemon(configuration: configuration, logger: logger, reload: load, logLevel: level)
        } catch {
            printError("logbookd: \(error)")
            throw ExitCode(73)  // EX_CANTCREAT
        }
        try await daemon.run()
    }
}

func printError(_ text: String) {
    let bytes = Array((text + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
}
