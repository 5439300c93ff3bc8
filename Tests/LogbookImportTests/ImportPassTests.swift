// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookImport
import LogbookTestSupport
import Testing

/// Readers and the trip cutter on real files and on the same drive in every format.
struct ImportPassTests {
    static func line(_ name: String, _ s: ImportSummary) -> String {
        "import: \(name): \(s.trips.filter { !$0.discarded }.count) trips, \(s.pointsRecorded) points, \(s.issues.count) skipped"
    }

    @Test func realGarminGPXWithElevation() async throws {
        let path = ImportSamples.sharedLogs + "/around-visnjan-with-car.gpx"
        let s = try await ImportSamples.pass(path)
        #expect(s.format == .gpx)
        #expect(s.issues.isEmpty, "\(s.issues)")
        #expect(s.positionsRead + s.duplicates == (try ImportSamples.gpxpyCount(path)))
        let kept = s.trips.filter { !$0.discarded }
        #expect(!kept.isEmpty)
        #expect(kept.allSatisfy { $0.startReason == "import:gpx" })
        print(Self.line("around-visnjan-with-car.gpx", s))
    }

    /// gpsbabel turns each NMEA log into GPX 1.0; every point with a time is read or named as
    /// bad (gpxpy counts them independently), and the trips are those the engine finds.
    @Test(arguments: ["munich-gps.nmea", "20100411_Geko_Regensburg.txt", "20100403_Z205_Switzerland.txt"])
    func gpsbabelGPXFromNMEA(_ log: String) async throws {
        let dir = try TemporaryDirectory("imp")
        defer { dir.remove() }
        let gpx = try ImportSamples.gpsbabelGPX(TestPaths.gpsLog(log), into: dir)
        let s = try await ImportSamples.pass(gpx)
        // The Munich receiver's clock steps back once (RealLogTests): a bad item, named.
        let backwards = log == "munich-gps.nmea" ? 1 : 0
        #expect(s.issues.count == backwards, "\(s.issues.prefix(3))")
        #expect(s.issues.allSatisfy { $0.message.hasPrefix("time goes backwards") && $0.line != nil })
        #expect(s.positionsRead + s.duplicates + s.issues.count == (try ImportSamples.gpxpyCount(gpx)))
        #expect(s.trips.filter { !$0.discarded }.count >= 1)
        print(Self.line(log + ".gpx", s))
    }

    /// The Swiss drive's one real break (13:13 UTC) splits it, its 57 s and 253 s stops do not:
    /// where the engine splits the live fixes (RealLogTests, and logbookd with a motion source).
    @Test func swissDriveSplitsAtItsRealBreak() async throws {
        let dir = try TemporaryDirectory("imp")
        defer { dir.remove() }
        let s = try await ImportSamples.pass(try ImportSamples.gpsbabelGPX(TestPaths.gpsLog("20100403_Z205_Switzerland.txt"), into: dir))
        let kept = s.trips.filter { !$0.discarded }
        #expect(kept.count == 2)
        #expect(kept.first?.endReason == "motion")
        let breakAt = try #require(ISO8601.parse("2010-04-03T13:13:03Z"))
        let firstEnd = try #require(kept.first?.endedAt)
        #expect(abs(firstEnd.seconds(since: breakAt)) < 15, "\(firstEnd)")
        let total = kept.map(\.distance).reduce(0, +)
        #expect(total > 235_000 && total < 250_000, "\(total)")
    }

    /// The Munich drive as GPX, GeoJSON, Records.json and Timeline.json: one trip each,
    /// of about the same length.
    @Test func sameDriveInEveryFormat() async throws {
        let fixes = try ImportSamples.munichFixes()
        let dir = try TemporaryDirectory("imp")
        defer { dir.remove() }
        let files: [(String, String, ImportFormat)] = [
            ("munich.geojson", ImportSamples.geoJSON(fixes), .geojson),
            ("Records.json", ImportSamples.recordsJSON(fixes), .googleTimeline),
            ("Records-ms.json", ImportSamples.recordsJSON(fixes, millis: true), .googleTimeline),
            ("Timeline.json", ImportSamples.timelineJSON(fixes), .googleTimeline),
        ]
        for (name, text, format) in files {
            let path = dir.file(name)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let sniffed = ImportFormat.sniff(prefix: Array(text.utf8.prefix(65_536)), fileName: name)
            #expect(sniffed == format, "\(name)")
            let s = try await ImportSamples.pass(path)
            #expect(s.issues.isEmpty, "\(name): \(s.issues.prefix(3))")
            #expect(s.positionsRead == fixes.count, "\(name)")
            let kept = s.trips.filter { !$0.discarded }
            #expect(kept.count == 1, "\(name): \(kept.count) trips")
            #expect((kept.first?.distance ?? 0) > 10_000 && (kept.first?.distance ?? 0) < 12_500, "\(name): \(kept.first?.distance ?? 0)")
            #expect(kept.first?.startReason == format.reason)
            print(Self.line(name, s))
        }
    }

    @Test func badInputNamesTheLineAndElement() async throws {
        let head = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\"><trk><trkseg>\n"
        let good = "<trkpt lat=\"48.1\" lon=\"11.5\"><time>2024-01-01T10:00:00Z</time></trkpt>\n"
        let cases: [(String, Int?, String)] = [
            (head + good + "<trkpt lat=\"48.1\" lon=\"11.5\"></trkpt>\n</trkseg></trk></gpx>", 4, "without <time>"),
            (head + good + "<trkpt lat=\"98.1\" lon=\"11.5\"><time>2024-01-01T10:00:05Z</time></trkpt>\n</trkseg></trk></gpx>", 4, "out of range"),
            (head + good + "<trkpt lat=\"48.1\" lon=\"11.5\"><time>2024-01-01T09:00:00Z</time></trkpt>\n</trkseg></trk></gpx>", 4, "backwards"),
            (head + good + "<trkpt lat=\"48.1\" lon=\"11.5\"><time>2024-01", 4, "truncated"),
            (head + "</trkseg></trk></gpx>", nil, "0 points"),
            ("<kml></kml>", 1, "not a GPX file"),
        ]
        for (text, line, words) in cases {
            let s = try await ImportSamples.pass(text: text, format: .gpx)
            let issue = try #require(s.issues.first, "\(words)")
            #expect(issue.line == line, "\(words): \(issue)")
            #expect(issue.message.contains(words), "\(issue)")
        }
    }

    @Test func csvOfOwnExportKeepsTripsAndVehicles() async throws {
        let csv = """
            trip_id,vehicle,time,lat,lon,speed_mps,course_deg,eph_m,alt_m\r
            7,golf,2024-05-01T10:00:00Z,48.1,11.5,0,,5,\r
            7,golf,2024-05-01T10:00:10Z,48.1009,11.5,10,0,5,520.5\r
            7,golf,2024-05-01T10:00:20Z,48.1018,11.5,10,0,5,521\r
            8,golf,2024-05-01T10:00:30Z,48.1027,11.5,10,0,5,\r
            8,golf,2024-05-01T10:00:40Z,48.1036,11.5,10,0,5,\r

            """
        let s = try await ImportSamples.pass(text: csv, format: .csv)
        #expect(s.issues.isEmpty)
        #expect(s.trips.count == 2, "each exported trip stays a trip, even back to back")
        #expect(s.trips.map(\.points) == [3, 2])
        #expect(s.trips.allSatisfy { $0.vehicle == "golf" && $0.endReason == "import:csv" })
    }
}
