// SPDX-License-Identifier: MIT
import ArgumentParser
import LogbookCore
import LogbookGarage
import LogbookPlaces
import LogbookStore

/// `logbook routes [--vehicle V] [--json]`: trips grouped by where they start and end (a named
/// place, else the place-name bundle's nearest town), most driven first.
struct RoutesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routes", abstract: "The routes you drive: trips grouped by start and end place, with medians and extremes.")
    @OptionGroup var paths: PathOptions
    @Option(help: "Only this vehicle's trips (its id).") var vehicle: String?
    @Flag(help: "Print JSON (SI units, ISO 8601 times).") var json = false

    func run() async throws {
        try await withExitCodes {
            if vehicle?.isEmpty == true { throw CLIError.usage("--vehicle needs a vehicle id") }
            let settings = try ReaderSettings.load(paths)
            let table = try IndexAccess.withIndex(settings) { index in
                let namer = try PlaceNaming.namer(settings, index)
                let query = TripQuery(vehicleID: vehicle, includeDiscarded: false, includeVoided: false)
                return RouteTable(try index.trips(matching: query).map(namer.named))
            }
            if json { return print(table.json.serialized) }
            guard !table.routes.isEmpty else { return print("No routes yet: no trip starts and ends at a named place or near a town.") }
            let f = TripFormat(units: settings.units)
            let header = ["Route", "Trips", "Median", "Median time", "Fastest", "Slowest", "Last driven"]
            let rows = table.routes.map { r in
                [
                    r.name, String(r.count), f.distance(r.medianDistance), TripFormat.duration(r.medianDuration),
                    "\(TripFormat.duration(r.fastestDuration)) (trip \(r.fastest))", "\(TripFormat.duration(r.slowestDuration)) (trip \(r.slowest))",
                    r.lastDriven.map(TripFormat.dateTime) ?? "—",
                ]
            }
            var widths = header.map(\.count)
            for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
            let line = { (cells: [String]) in cells.indices.map { pad(cells[$0], widths[$0], right: [1, 2, 3].contains($0)) }.joined(separator: "  ") }
            print(line(header))
            rows.forEach { print(line($0)) }
            if table.unnamed > 0 { print("\(table.unnamed) trip\(table.unnamed == 1 ? "" : "s") without a place name at an end (not on a route).") }
        }
    }
}
