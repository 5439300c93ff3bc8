// SPDX-License-Identifier: MIT
import LogbookDaemon
import LogbookPOSIX
import LogbookSettings
import LogbookSystemd
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// `logbookd`: records trips from gpsd fixes and vehicle signals. Returns the exit status:
/// 78 (EX_CONFIG) for a config error, 73 (EX_CANTCREAT) when the journal cannot be opened,
/// 1 when the daemon fails while running, 0 after a clean shutdown.
func runDaemon(_ arguments: DaemonArguments) async -> Int32 {
    // The same file, environment and flags at start and on every SIGHUP reload.
    let (file, environment, overrides) = (arguments.configFile, ProcessEnvironment.current(), arguments.overrides)
    let load: @Sendable () throws -> Settings = {
        try Settings.load(file: file, environment: environment, overrides: overrides)
    }
    let configuration: Settings
    do {
        configuration = try load()
    } catch {
        printError("logbookd: config error: \(error)")
        return 78
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
    } catch DaemonError.configuration(let why) {
        printError("logbookd: config error: \(why)")
        return 78
    } catch {
        printError("logbookd: \(error)")
        return 73
    }
    do {
        try await daemon.run()
        // The last line: the daemon's own peak (its memory target; hooks' children not in it).
        logger.info(
            "logbookd stopped",
            metadata: [
                "peak_rss_kib": "\(ResourceUsage.peakResidentKiB)", "cpu_s": "\(ResourceUsage.cpuSeconds)",
            ])
        return 0
    } catch {
        printError("logbookd: \(error)")
        return 1
    }
}

func printError(_ text: String) {
    let bytes = Array((text + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
}
