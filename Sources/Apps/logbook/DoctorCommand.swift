// SPDX-License-Identifier: MIT
import ArgumentParser
import LogbookCore
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
            let checks = DoctorChecks(settings: settings, configFile: file)
            let probe = GPSDProbe.run(settings.daemon.gpsd, wait: wait)
            let results = [
                checks.gpsd(probe), checks.fix(probe, waited: wait), checks.daemon(), checks.sources(), checks.vehicles(),
                checks.permissions(), checks.clock(probe), checks.disk(minimumFreeMiB: minFreeMiB),
            ]
            print("Checking \(file)")
            for r in results { print(r.text) }
            let failed = results.filter { !$0.ok }.count
            print(failed == 0 ? "All \(results.count) checks passed." : "\(failed) of \(results.count) checks failed.")
            if failed > 0 { throw CLIError.problem("doctor: \(failed) of \(results.count) checks failed") }
        }
    }
}
