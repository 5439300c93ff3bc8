// SPDX-License-Identifier: MIT
import ArgumentParser
import Foundation
import LogbookCore
import LogbookPOSIX
import LogbookExport
import LogbookRecords
import LogbookSettings
import LogbookStore

/// `--format`: the export formats by name.
enum FormatArgument: String, CaseIterable, ExpressibleByArgument {
    case gpx, geojson, csv
    var format: ExportFormat { ExportFormat(rawValue: rawValue) ?? .csv }
}

/// `--units`: metric or imperial.
enum UnitsArgument: String, CaseIterable, ExpressibleByArgument {
    case metric, imperial
    var system: UnitSystem { self == .metric ? .metric : .imperial }
}

/// `logbook trips export ID…|--all [--since DATE] [--until DATE] [--vehicle ID]
/// --format gpx|geojson|csv [-o FILE]`: trips as files other tools open, streamed from the
/// index a chunk of points at a time (memory stays flat for `--all` over years of driving).
struct TripsExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export trips as GPX, GeoJSON or CSV.",
        discussion: """
            GPX 1.1 (speed and course in Garmin's TrackPointExtension), GeoJSON (RFC 7946, one
            line feature per trip with its summary) or CSV (RFC 4180, one row per point). To
            stdout, or with -o to a file that appears complete or not at all. --all takes trips
            oldest first and leaves out discarded ones unless --include-discarded, voided ones unless --include-voided.
            """)

    @OptionGroup var paths: PathOptions

    @Argument(help: "Trip numbers (as `logbook trips list` shows them).")
    var ids: [String] = []

    @Flag(name: .long, help: "Every trip (narrow with --since, --until, --vehicle).")
    var all = false

    @Option(name: .long, help: "With --all: trips that started on or after DATE (YYYY-MM-DD, local) or TIME (ISO 8601).")
    var since: String?

    @Option(name: .long, help: "With --all: trips that started up to DATE (inclusive) or before TIME.")
    var until: String?

    @Option(name: .long, help: "With --all: only this vehicle's trips.")
    var vehicle: String?

    @Flag(name: .customLong("include-discarded"), help: "With --all: also trips discarded as too short.")
    var includeDiscarded = false

    @Flag(name: .customLong("include-voided"), help: "With --all: also trips a person voided.")
    var includeVoided = false

    @Option(name: .long, help: "gpx, geojson or csv.")
    var format: FormatArgument

    @Option(name: [.customShort("o"), .customLong("output")], help: "Write to FILE (atomically) instead of stdout.")
    var output: String?

    @Option(name: .long, help: "Units of the text inside (GPX descriptions): metric or imperial (default: [units] in the config).")
    var units: UnitsArgument?

    /// The selection arguments; dates are read in the configured zone (``LocalTimeInput``).
    func arguments() -> TripSelectionArguments {
        TripSelectionArguments(
            ids: ids, all: all, since: since, until: until, vehicle: vehicle, includeDiscarded: includeDiscarded,
            includeVoided: includeVoided)
    }

    func run() async throws {
        try await withExitCodes {
            if output?.isEmpty == true { throw CLIError.usage("-o needs a file name") }
            let settings = try ReaderSettings.load(paths)
            let selection: TripSelection
            do {
                selection = try arguments().selection(zone: settings.zone)
            } catch let problem as TripSelectionArguments.Problem {
                throw CLIError.usage(problem.description)
            }
            let index = try IndexAccess.open(settings)
            defer { try? index.close() }
            try VehicleFilter.check(vehicle, try settings.withVehicles(from: index), index)
            var options = ExportOptions(
                createdAt: GPSTime(nanoseconds: Int64(Date().timeIntervalSince1970 * 1e9)),
                units: units?.system ?? settings.units)
            options.zone = settings.zone
            for v in settings.daemon.vehicles { options.vehicles[v.id] = v.vehicle }
            do {
                try export(selection, from: index, options: options)
            } catch let error as TripIndexError {
                throw CLIError.problem("\(error.description) (logbook reindex rebuilds it)")
            }
        }
    }

    /// The export itself, against any catalog (the index, or a test double).
    func export(_ selection: TripSelection, from catalog: some TripCatalog, options: ExportOptions) throws {
        let exporter = TripExport(format: format.format, options: options)
        let ids: [TripID]
        do {
            ids = try exporter.tripIDs(selection, in: catalog)
        } catch let error as ExportError {
            throw CLIError.problem("\(error.description) in the logbook")  // before any byte is written
        }
        let file = try OutputFile(path: output ?? AtomicFile.standardOutput)
        let summary = try exporter.write(ids, from: catalog, to: file)
        try file.commit()
        guard !file.isStandardOutput else { return }
        FileHandle.standardError.write(
            Data("logbook: wrote \(summary.trips) trip(s), \(summary.points) points, \(summary.bytes) bytes to \(output ?? AtomicFile.standardOutput)\n".utf8))
    }
}
