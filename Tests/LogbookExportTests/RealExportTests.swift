// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookExport
import LogbookTestSupport
import Testing

/// Exports of journals the real daemon wrote from real drives, judged by real tools: xmllint
/// against Topografix's GPX 1.1 schema, a gpsbabel round trip, the Python `geojson` package
/// plus RFC 7946 rules, Python's RFC 4180 `csv` reader.
@Suite(.timeLimit(.minutes(6))) struct RealExportTests {
    typealias Drive = RecordedDrives.Drive

    struct Exported {
        let dir: TemporaryDirectory
        let file: String
        let summary: ExportSummary
        let points: [TripPoint]
        let trips: [TripOverview]
    }

    /// Exports every kept trip of `drive` in `format` to a file.
    func export(_ drive: Drive, _ format: ExportFormat) async throws -> Exported {
        let catalog = try JournalCatalog(directory: try await RecordedDrives.shared.journal(drive))
        let trips = try catalog.trips(matching: TripQuery(includeDiscarded: false)).reversed()
        let points = try trips.flatMap { try catalog.points(of: $0.id) }
        let dir = try TemporaryDirectory("exp")
        let file = dir.file("trips.\(format.fileExtension)")
        let sink = MemorySink()
        let clock = ContinuousClock.now
        let summary = try TripExport(format: format).write(.matching(TripQuery(includeDiscarded: false)), from: catalog, to: sink)
        let took = clock.duration(to: .now)
        try Data(sink.bytes).write(to: URL(fileURLWithPath: file))
        print("export: \(drive): \(format): \(summary.trips) trip(s), \(summary.points) points, \(summary.bytes) bytes (debug build, \(took))")
        return Exported(dir: dir, file: file, summary: summary, points: points, trips: Array(trips))
    }

    func check(_ kind: String, _ file: String, _ extra: [String] = []) async throws -> JSONValue {
        let r = try await Tool.run(try await Tool.python(), [Tool.checker, kind, file] + extra)
        let found = try JSONValue.parse(r.output)
        #expect(r.status == 0 && found["ok"] == .bool(true), "\(kind) check: \(r.output) \(r.errors)")
        return found
    }

    @Test(arguments: Drive.allCases)
    func gpxValidatesAgainstTheSchemaAndGpsbabelReadsBackEveryPoint(drive: Drive) async throws {
        let e = try await export(drive, .gpx)
        defer { e.dir.remove() }
        #expect(e.summary.points == e.points.count && e.points.count > 500)
        for schema in ["gpx.xsd", "gpx-logbook.xsd"] {
            let lint = try await Tool.run("/usr/bin/xmllint", ["--noout", "--schema", Tool.schema(schema), e.file])
            #expect(lint.status == 0, "xmllint \(schema): \(lint.errors.prefix(2000))")
        }
        // The schema check can fail: a latitude out of range must be refused.
        let broken = e.dir.file("broken.gpx")
        let text = try String(contentsOfFile: e.file, encoding: .utf8)
        try text.replacingOccurrences(of: "<trkpt lat=\"", with: "<trkpt lat=\"9").write(toFile: broken, atomically: true, encoding: .utf8)
        let refused = try await Tool.run("/usr/bin/xmllint", ["--noout", "--schema", Tool.schema("gpx.xsd"), broken])
        #expect(refused.status != 0)

        let csv = e.dir.file("babel.csv")
        let babel = try await Tool.run("/usr/bin/gpsbabel", ["-t", "-i", "gpx", "-f", e.file, "-o", "unicsv", "-F", csv])
        #expect(babel.status == 0, "gpsbabel: \(babel.errors)")
        let babelText = try String(contentsOfFile: csv, encoding: .utf8)
        let rows = babelText.split(whereSeparator: \.isNewline).count - 1  // gpsbabel ends lines with CRLF
        print("export: \(drive): gpx: gpsbabel read back \(rows) of \(e.points.count) points")
        #expect(rows == e.points.count, "gpsbabel: \(babel.errors.prefix(500)) \(babelText.prefix(300))")

        let found = try await check("gpx", e.file)
        #expect(found["trkpt"]?.doubleValue == Double(e.points.count))
        #expect(found["trk"]?.doubleValue == Double(e.trips.count))
        #expect(found["speeds"]?.doubleValue == Double(e.points.filter { $0.speed != nil }.count))
        let top = e.trips.map(\.maxSpeed).max() ?? 0
        #expect(abs((found["max_speed"]?.doubleValue ?? 0) - top) < 0.01)
        #expect(found["first"]?["time"] == .string(ISO8601.format(e.points[0].time)))
        #expect(abs((found["first"]?["lat"]?.doubleValue ?? 0) - e.points[0].latitude) < 1e-7)
    }

    @Test(arguments: Drive.allCases)
    func geojsonPassesTheGeojsonPackageAndRFC7946Rules(drive: Drive) async throws {
        let e = try await export(drive, .geojson)
        defer { e.dir.remove() }
        let found = try await check("geojson", e.file)
        #expect(found["features"]?.doubleValue == Double(e.trips.count))
        #expect(found["points"]?.doubleValue == Double(e.points.count))
        #expect(abs((found["first"]?["lon"]?.doubleValue ?? 0) - e.points[0].longitude) < 1e-7)
        #expect(abs((found["first"]?["lat"]?.doubleValue ?? 0) - e.points[0].latitude) < 1e-7)
        let props = try #require(found["properties"])
        #expect(props["id"] == .string(e.trips[0].id.description))
        #expect(props["vehicle"]?["id"] == .string("golf") && props["start_reason"] == .string("service"))
        #expect(props["points"]?.doubleValue == Double(e.trips[0].pointCount))
        print("export: \(drive): geojson: \(found["lines"]?.doubleValue.map { Int($0) } ?? 0) line(s), \(Int(found["positions"]?.doubleValue ?? 0)) positions")
    }

    @Test func theGeojsonCheckerRefusesALineOfOnePosition() async throws {
        let dir = try TemporaryDirectory("exp")
        defer { dir.remove() }
        let bad = dir.file("bad.geojson")
        try #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"LineString","coordinates":[[7.9,47.3]]},"properties":{}}]}"#
            .write(toFile: bad, atomically: true, encoding: .utf8)
        let r = try await Tool.run(try await Tool.python(), [Tool.checker, "geojson", bad])
        #expect(r.status != 0)
    }

    @Test(arguments: Drive.allCases)
    func csvHasOneRowPerPoint(drive: Drive) async throws {
        let e = try await export(drive, .csv)
        defer { e.dir.remove() }
        let found = try await check("csv", e.file)
        #expect(found["rows"]?.doubleValue == Double(e.points.count))
        #expect(found["header"] == .array(CSVWriter.columns.map { .string($0) }))
        #expect(found["vehicles"] == .array([.string("golf")]))
        #expect(found["first"]?["time"] == .string(ISO8601.format(e.points[0].time)))
    }
}
