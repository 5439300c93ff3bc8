// SPDX-License-Identifier: MIT
import ArgumentParser
import Foundation
import LogbookCore
import LogbookExport

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
            oldest first and leaves out discarded ones unless --include-discarded.
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

    @Option(name: .long, help: "gpx, geojson or csv.")
    var format: FormatArgument

    @Option(name: [.customShort("o"), .customLong("output")], help: "Write to FILE (atomically) instead of stdout.")
    var output: String?

    @Option(name: .long, help: "Units of the human-readable text inside (GPX descriptions): metric or imperial.")
    var units: UnitsArgument = .metric

    var arguments: TripSelectionArguments {
        TripSelectionArguments(
            ids: ids, all: all, since: since, until: until, vehicle: vehicle, includeDiscarded: includeDiscarded)
    }

    func validate() throws {
        do {
            _ = try arguments.selection(utcOffset: LocalTime.offset)
        } catch {
            throw ValidationError(error.description)
        }
        if output?.isEmpty == true { throw ValidationError("-o needs a file name") }
    }

    func run() async throws {
        try await withExitCodes {
            let catalog = try TripCatalogAccess.open(paths)
            try export(from: catalog)
        }
    }

    /// The export itself, against any catalog (the index, or a test double).
    func export(from catalog: some TripCatalog) throws {
        let selection: TripSelection
        do {
            selection = try arguments.selection(utcOffset: LocalTime.offset)
        } catch {
            throw CLIError.usage(error.description)
        }
        let now = GPSTime(nanoseconds: Int64(Date().timeIntervalSince1970 * 1e9))
        let exporter = TripExport(format: format.format, options: ExportOptions(createdAt: now, units: units.system))
        let ids: [TripID]
        do {
            ids = try exporter.tripIDs(selection, in: catalog)
        } catch let error as ExportError {
            throw CLIError.problem(error.description)  // before any byte is written
        }
        guard let output else {
            try exporter.write(ids, from: catalog, to: FileDescriptorSink(fd: 1, name: "stdout"))
            return
        }
        let file = try AtomicOutputFile(path: output)
        let summary = try exporter.write(ids, from: catalog, to: file.sink)
        try file.commit()
        FileHandle.standardError.write(
            Data("logbook: wrote \(summary.trips) trip(s), \(summary.points) points, \(summary.bytes) bytes to \(output)\n".utf8))
    }
}

/// The local time zone, for dates a person types and times a person reads.
enum LocalTime {
    /// Seconds east of UTC at `time`.
    static func offset(_ time: GPSTime) -> Int {
        TimeZone.current.secondsFromGMT(for: Date(timeIntervalSince1970: time.seconds))
    }

    /// The zone's abbreviation at `time` (`CET`, `CEST`, `UTC`).
    static func name(_ time: GPSTime) -> String {
        TimeZone.current.abbreviation(for: Date(timeIntervalSince1970: time.seconds)) ?? "UTC"
    }
}
