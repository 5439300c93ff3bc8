// SPDX-License-Identifier: MIT
import ArgumentParser
import LogbookCore

@main
struct LogbookCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logbook",
        abstract: "Read and manage the trips logbookd records.",
        version: LogbookVersion.line("logbook"),
        subcommands: [
            StatusCommand.self, WatchCommand.self, TripCommand.self, TripsCommand.self, ReindexCommand.self, VerifyCommand.self,
            UplinkCommand.self, VehiclesCommand.self, FuelCommand.self, OdometerCommand.self, StatsCommand.self, ReportCommand.self,
            DashboardCommand.self, ServiceCommand.self, PlacesCommand.self, RulesCommand.self, RoutesCommand.self, ImportCommand.self,
            DoctorCommand.self,
        ]
    )

    /// Accepted before the subcommand too (`logbook --state-dir D status`), as docs/architecture.md shows.
    @OptionGroup var paths: PathOptions

    /// ArgumentParser's own main, plus a last check of standard output: what `print` wrote
    /// sits in stdio's buffer until exit, and a failure to write it (a full disk, `/dev/full`)
    /// must be one line on stderr and exit 1, not a silent exit 0.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            guard StandardOutput.flush() else { exit(withError: ExitCodes.problem) }
            exit(withError: error)
        }
        guard StandardOutput.flush() else { exit(withError: ExitCodes.problem) }
    }
}
