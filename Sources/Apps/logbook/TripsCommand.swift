// SPDX-License-Identifier: MIT
import ArgumentParser
import Foundation
import LogbookCore
import LogbookPlaces
import LogbookRecords
import LogbookStore

/// `logbook trips …`: the recorded trips, from the trip index (caught up on every run).
struct TripsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trips", abstract: "List, show, export, classify and correct trips (from the trip index).",
        subcommands: [
            TripsListCommand.self, TripsShowCommand.self, TripsExportCommand.self, TripsClassifyCommand.self, TripsVoidCommand.self,
            TripsRestoreCommand.self, TripsAssignCommand.self, TripsMergeCommand.self, TripsSplitCommand.self,
        ])
}

/// `logbook trips list [--vehicle ID] [--since DATE] [--until DATE] [--limit N] [--json]`.
struct TripsListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List trips, newest first, with a totals line.")

    @OptionGroup var paths: PathOptions

    @Option(name: .long, help: "Only this vehicle's trips (its id).")
    var vehicle: String?

    @Option(name: .long, help: "Trips that started on or after DATE (YYYY-MM-DD local, or ISO 8601).")
    var since: String?

    @Option(name: .long, help: "Trips that started before DATE (a plain date includes that day).")
    var until: String?

    @Option(name: .long, help: "At most N trips (the newest).")
    var limit: Int?

    @Flag(name: .long, help: "Print JSON (SI units, ISO 8601 times) instead of a table.")
    var json = false

    func run() async throws {
        try await withExitCodes {
            var settings = try ReaderSettings.load(paths)
            var query = TripQuery(vehicleID: vehicle, limit: limit)
            if let since { query.since = try DateArgument.parse(since, option: "--since", endOfDay: false) }
            if let until { query.until = try DateArgument.parse(until, option: "--until", endOfDay: true) }
            if let limit, limit < 1 { throw CLIError.usage("--limit must be at least 1, got \(limit)") }
            if vehicle?.isEmpty == true { throw CLIError.usage("--vehicle needs a vehicle id") }
            try IndexAccess.withIndex(settings) { index in
                settings = try settings.withVehicles(from: index)
                try VehicleFilter.check(vehicle, settings, index)
                let namer = try PlaceNaming.namer(settings, index)
                // Streamed from the index (twice for the table): ten years of trips are never held.
                let trips: TripsListView.Trips = { body in
                    try index.forEachTrip(matching: query) { t in
                        try body(namer.named(t))
                        return true
                    }
                }
                if json { try TripsListView.printJSON(trips, settings) } else { try TripsListView.printTable(trips, settings) }
            }
        }
    }
}

/// `logbook trips show ID [--json]`.
struct TripsShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show one trip: stat cards, why it started and ended, gaps, a share summary.")

    @OptionGroup var paths: PathOptions

    @Argument(help: "The trip's number (see `logbook trips list`).")
    var id: String

    @Flag(name: .long, help: "Print JSON (SI units, ISO 8601 times) instead of text.")
    var json = false

    @Option(name: .customLong("svg"), help: "Also write the trip's picture (route coloured by speed, speed chart) as SVG to FILE.")
    var svg: String?

    @Option(name: .customLong("html"), help: "Also write a self-contained HTML page (stat cards and the picture) to FILE.")
    var html: String?

    @Flag(name: .long, help: "List every change made to the trip: when, what, from where.")
    var history = false

    func run() async throws {
        try await withExitCodes {
            guard let number = UInt64(id), number > 0 else { throw CLIError.usage("not a trip number: \"\(id)\"") }
            if svg?.isEmpty == true || html?.isEmpty == true { throw CLIError.usage("--svg and --html need a file name") }
            var settings = try ReaderSettings.load(paths)
            let found = try IndexAccess.withIndex(settings) { index -> (TripOverview, [TripGap], [RecordedEntry])? in
                settings = try settings.withVehicles(from: index)
                guard let trip = try index.trip(TripID(number)) else {
                    if let into = try index.mergedInto(TripID(number)) {
                        throw CLIError.problem("trip \(number) was merged into trip \(into) (logbook trips show \(into))")
                    }
                    return nil
                }
                return (try PlaceNaming.namer(settings, index).named(trip), try index.gaps(of: trip.id), try index.history(of: trip.id))
            }
            guard let (trip, gaps, changes) = found else { throw CLIError.problem("no trip \(number) in the logbook") }
            if json {
                print(TripShowView.json(trip, gaps, settings, history: history ? changes : nil))
            } else {
                print(TripShowView.text(trip, gaps, settings))
                if history { print(TripShowView.history(changes, trip: trip)) }
            }
            if svg != nil || html != nil {
                try IndexAccess.withIndex(settings) { index in
                    try TripPictureFiles.write(
                        trip: trip, catalog: index, svg: svg, html: html,
                        units: settings.units, vehicleName: settings.vehicle(trip.vehicleID)?.name)
                }
            }
        }
    }
}
