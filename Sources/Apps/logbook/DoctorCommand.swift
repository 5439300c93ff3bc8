// SPDX-License-Identifier: MIT
import ArgumentParser
import Foundation
import LogbookCore
import LogbookDoctor
import LogbookSettings

/// `logbook doctor`: checks what a first run needs and says what to do about each failure.
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor", abstract: "Check the set-up: gpsd and its fix, the daemon and its sources, vehicles, permissions, clock, disk.",
        discussion: "Exit 0 when every check passes, 1 when any fails (each failure is printed with what to do).")

    @OptionGroup var paths: PathOptions

    @Option(name: .long, help: "Seconds to wait for gpsd's fix (default 5).")
    var wait: Double = 5

    @Option(name: .customLong("min-free-mib"), help: "Free space the journal's file system must have, MiB (default 100).")
    var minFreeMiB: Int = 100

    func run() async throws {
        try await withExitCodes {
            guard wait > 0, wait <= 600 else { throw CLIError.usage("--wait must be between 0 and 600 seconds") }
            guard minFreeMiB >= 0 else { throw CLIError.usage("--min-free-mib must not be negative") }
            let settings = try ReaderSettings.load(paths)
            let file = settings.daemon.configFile ?? "/etc/logbook/logbookd.toml"
            var checks = DoctorChecks(settings: settings.daemon, configFile: file, indexPath: settings.indexPath)
            checks.staleAfter = StatusCommand.staleAfter
            let probe = GPSDProbe.run(settings.daemon.gpsd, wait: wait)
            let results = checks.all(probe: probe, waited: wait, recordedVehicles: Self.recordedVehicles(settings), minimumFreeMiB: minFreeMiB)
            print("Checking \(file)")
            for r in results { print(r.text) }
            let failed = results.filter { !$0.ok }.count
            print(failed == 0 ? "All \(results.count) checks passed." : "\(failed) of \(results.count) checks failed.")
            if failed > 0 { throw CLIError.problem("doctor: \(failed) of \(results.count) checks failed") }
        }
    }

    /// The vehicles added through the journal (`logbook vehicles add`, the web app), as the index holds them.
    static func recordedVehicles(_ settings: ReaderSettings) -> [String] {
        guard FileManager.default.isReadableFile(atPath: settings.journalDirectory),
            let withJournal = try? IndexAccess.withIndex(settings, { try settings.withVehicles(from: $0) })
        else { return [] }
        return Array(withJournal.registry.keys)
    }
}
