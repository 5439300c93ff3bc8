// SPDX-License-Identifier: MIT
import ArgumentParser

@main
struct LogbookCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logbook",
        abstract: "Read and manage the trips logbookd records.",
        subcommands: [
            StatusCommand.self, WatchCommand.self, TripCommand.self, TripsCommand.self, ReindexCommand.self, VerifyCommand.self,
            UplinkCommand.self, VehiclesCommand.self, FuelCommand.self, OdometerCommand.self, StatsCommand.self, ReportCommand.self,
            DashboardCommand.self, ServiceCommand.self, PlacesCommand.self, ImportCommand.self,
        ]
    )

    /// Accepted before the subcommand too (`logbook --state-dir D status`), as DESIGN.md §3 shows.
    @OptionGroup var paths: PathOptions
}
