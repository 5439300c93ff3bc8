// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookExport
import Testing

/// The writers' rules on synthetic trips (the real drives and real tools are in
/// RealExportTests).
@Suite struct ExportWriterTests {
    /// Trip 1: 10 points with a gap before the 7th; trip 2: 5 points of another car; trip 3:
    /// discarded, 1 point.
    var catalog: MemoryCatalog {
        let one = SampleTrips.withHole(SampleTrips.points(10), before: 6)
        let two = SampleTrips.points(5, from: GPSTime(seconds: 1_270_300_000))
        let three = SampleTrips.points(1, from: GPSTime(seconds: 1_270_400_000))
        return MemoryCatalog(trips: [
            (SampleTrips.overview(1, one), one, [SampleTrips.gap(before: 6, in: one)]),
            (SampleTrips.overview(2, two, vehicle: "van, \"blue\""), two, []),
            (SampleTrips.overview(3, three, state: .discarded), three, []),
        ])
    }

    func count(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    @Test func gpxHasATrackPerTripASegmentPerStretchAndSpeedCourseExtensions() throws {
        let gpx = try SampleTrips.export(.gpx, catalog, .trips([TripID(1), TripID(2)]))
        #expect(gpx.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\""))
        #expect(count("<trk>", in: gpx) == 2)
        #expect(count("<trkseg>", in: gpx) == 3)  // trip 1 splits at its gap
        #expect(count("<trkpt ", in: gpx) == 15)
        #expect(count("<gpxtpx:speed>20</gpxtpx:speed>", in: gpx) == 15)
        #expect(count("<gpxtpx:course>88.5</gpxtpx:course>", in: gpx) == 15)
        #expect(gpx.contains("<name>Trip 1, 2010-04-03 11:22 UTC</name>"))
        #expect(gpx.contains("<number>2</number>"))
        #expect(gpx.contains("vehicle=\"van, &quot;blue&quot;\""))
        #expect(gpx.contains("<trkpt lat=\"47.35\" lon=\"7.9\"><ele>420</ele><time>2010-04-03T11:22:25Z</time>"))
        #expect(gpx.hasSuffix("</gpx>\n"))
    }

    @Test func gpxKeepsLongitudeAndCourseInsideTheSchemaRanges() throws {
        var p = SampleTrips.points(2)
        p[0].longitude = 179.99999999
        p[0].track = 359.97
        p[1].track = -10
        let c = MemoryCatalog(trips: [(SampleTrips.overview(1, p), p, [])])
        let gpx = try SampleTrips.export(.gpx, c, .trips([TripID(1)]))
        #expect(gpx.contains("lon=\"-180\""))
        #expect(gpx.contains("<gpxtpx:course>0</gpxtpx:course>"))
        #expect(gpx.contains("<gpxtpx:course>350</gpxtpx:course>"))
    }

    @Test func geojsonIsAMultiLineStringAcrossGapsWithASpeedPerSegment() throws {
        let text = try SampleTrips.export(.geojson, catalog, .trips([TripID(1), TripID(2), TripID(3)]))
        let doc = try JSONValue.parse(text)
        guard case .array(let features)? = doc["features"] else { Issue.record("no features"); return }
        #expect(doc["type"] == .string("FeatureCollection") && features.count == 3)
        let one = features[0]
        #expect(one["geometry"]?["type"] == .string("MultiLineString"))
        guard case .array(let lines)? = one["geometry"]?["coordinates"],
            case .array(let speeds)? = one["properties"]?["segment_speeds_mps"]
        else { Issue.record("no lines"); return }
        #expect(lines.count == 2 && speeds.count == 2)
        if case .array(let a) = lines[0], case .array(let b) = lines[1], case .array(let sa) = speeds[0],
            case .array(let sb) = speeds[1]
        {
            #expect(a.count == 6 && b.count == 4 && sa.count == 5 && sb.count == 3)
            #expect(a[0] == .array([.number(7.9), .number(47.35)]))  // lon, lat
        } else {
            Issue.record("lines are not arrays")
        }
        #expect(one["properties"]?["id"] == .string("1"))
        #expect(one["properties"]?["start_reason"] == .string("power:ACAD"))
        #expect(one["properties"]?["recovered"] == .bool(false))
        #expect(features[1]["geometry"]?["type"] == .string("LineString"))
        #expect(features[1]["properties"]?["vehicle"]?["id"] == .string("van, \"blue\""))
        #expect(features[1]["properties"]?["vehicle"]?["name"] == .string("van, \"blue\""))
        // One point: the line repeats it (a LineString needs two positions) at speed 0.
        let three = features[2]
        #expect(three["properties"]?["discarded"] == .bool(true))
        if case .array(let c)? = three["geometry"]?["coordinates"] {
            #expect(c.count == 2 && c[0] == c[1])
        }
        #expect(three["properties"]?["segment_speeds_mps"] == .array([.number(0)]))
    }

    @Test func configuredVehiclesGiveTheVehicleObjectAndName() throws {
        let golf = Vehicle(id: "golf", name: "Golf", make: "VW", model: "Golf", year: 2019)
        let options = ExportOptions(vehicles: ["golf": golf])
        let geo = MemorySink(), gpx = MemorySink()
        try TripExport(format: .geojson, options: options).write(.trips([TripID(1)]), from: catalog, to: geo)
        try TripExport(format: .gpx, options: options).write(.trips([TripID(1)]), from: catalog, to: gpx)
        let doc = try JSONValue.parse(geo.text)
        guard case .array(let features)? = doc["features"] else { Issue.record("no features"); return }
        #expect(features[0]["properties"]?["vehicle"] == golf.json)
        #expect(gpx.text.contains(", max 72 km/h, Golf</desc>") && gpx.text.contains(" vehicle=\"golf\" "))
    }

    @Test func geojsonGivesATripWithoutPointsANullGeometry() throws {
        let c = MemoryCatalog(trips: [(SampleTrips.overview(7, []), [], [])])
        let doc = try JSONValue.parse(try SampleTrips.export(.geojson, c, .trips([TripID(7)])))
        guard case .array(let features)? = doc["features"] else { Issue.record("no features"); return }
        #expect(features.first?["geometry"] == .null)
    }

    @Test func csvHasAHeaderARowPerPointCRLFAndQuotedFields() throws {
        let csv = try SampleTrips.export(.csv, catalog, .trips([TripID(2)]))
        let rows = csv.split(separator: "\r\n", omittingEmptySubsequences: false)
        #expect(rows.first == "trip_id,vehicle,time,lat,lon,speed_mps,course_deg,eph_m,alt_m")
        #expect(rows.count == 1 + 5 + 1 && rows.last == "")
        #expect(rows[1] == "2,\"van, \"\"blue\"\"\",2010-04-03T13:06:40Z,47.35,7.9,20,88.5,4.2,420")
        #expect(!csv.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
    }

    @Test func allIsOldestFirstAndLeavesOutDiscardedTripsWhenAsked() throws {
        let ids = try TripExport(format: .csv).tripIDs(.matching(TripQuery(includeDiscarded: false)), in: catalog)
        #expect(ids == [TripID(1), TripID(2)])
        let every = try TripExport(format: .csv).tripIDs(.matching(TripQuery()), in: catalog)
        #expect(every == [TripID(1), TripID(2), TripID(3)])
        let given = try TripExport(format: .csv).tripIDs(.trips([TripID(2), TripID(1), TripID(2)]), in: catalog)
        #expect(given == [TripID(2), TripID(1)])
    }

    @Test func anUnknownTripFailsBeforeAnythingIsWritten() throws {
        let sink = MemorySink()
        #expect(throws: ExportError.noSuchTrip(TripID(9))) {
            try TripExport(format: .gpx).write(.trips([TripID(1), TripID(9)]), from: catalog, to: sink)
        }
        #expect(sink.bytes.isEmpty)
    }

    @Test(arguments: ExportFormat.allCases)
    func summaryCountsWhatWasWritten(format: ExportFormat) throws {
        let sink = MemorySink()
        let summary = try TripExport(format: format).write(.matching(TripQuery()), from: catalog, to: sink)
        #expect(summary == ExportSummary(trips: 3, points: 16, bytes: sink.bytes.count))
    }
}

/// Streaming: an export of many points reaches the sink in bounded chunks, whatever its size.
@Suite struct ExportStreamingTests {
    /// Trips whose points are made up as they are read (nothing held by the catalog).
    struct GeneratedCatalog: TripCatalog {
        let trips: Int
        let points: Int

        func forEachTrip(matching query: TripQuery, _ body: (TripOverview) throws -> Bool) throws {
            for n in stride(from: trips, through: 1, by: -1) where try !body(try #require(try trip(TripID(UInt64(n))))) { return }
        }
        func trip(_ id: TripID) throws -> TripOverview? {
            SampleTrips.overview(id.rawValue, SampleTrips.points(1, from: GPSTime(seconds: 1_600_000_000 + Int64(id.rawValue) * 10_000)))
        }
        func forEachPointChunk(of id: TripID, _ body: ([TripPoint]) throws -> Void) throws {
            let start = GPSTime(seconds: 1_600_000_000 + Int64(id.rawValue) * 10_000)
            let all = SampleTrips.points(points, from: start)
            for i in stride(from: 0, to: all.count, by: 500) { try body(Array(all[i..<min(i + 500, all.count)])) }
        }
        func gaps(of id: TripID) throws -> [TripGap] { [] }
    }

    final class CountingSink: ByteSink {
        var writes = 0, largest = 0, total = 0, lines = 0
        func write(_ bytes: UnsafeRawBufferPointer) throws {
            writes += 1
            largest = max(largest, bytes.count)
            total += bytes.count
            lines += bytes.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
        }
    }

    @Test(arguments: ExportFormat.allCases)
    func manyPointsGoOutInChunksOfAtMost68KiB(format: ExportFormat) throws {
        let sink = CountingSink()
        let summary = try TripExport(format: format).write(.matching(TripQuery()), from: GeneratedCatalog(trips: 40, points: 2500), to: sink)
        #expect(summary.points == 100_000 && summary.trips == 40 && summary.bytes == sink.total)
        #expect(sink.largest <= (64 << 10) + 4096 && sink.writes > 10)
        if format == .csv { #expect(sink.lines == 100_001) }
    }
}
