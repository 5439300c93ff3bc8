// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookGarage
import LogbookRecords
import Testing

/// The report's odometer columns: a true reading taken at a trip's start or end (the OBD
/// adapter's, origin `obd`, or a person's) is the figure and says so; otherwise the estimate
/// from the nearest reading and the GPS distance, marked as one.
@Suite struct ReportOdometerTests {
    static func time(_ text: String) throws -> GPSTime { try #require(ISO8601.parse(text)) }

    static func reading(_ at: String, _ km: Double, origin: String, seq: UInt64) throws -> RecordedEntry {
        let t = try time(at)
        return RecordedEntry(
            sequence: seq, entry: OdometerRecord(vehicle: "golf", at: t, odometerKm: km).entry(subject: FuelRecord.subject(vehicle: "golf", at: t), origin: origin),
            recordedAt: t)
    }

    @Test func aTrueReadingBeatsTheEstimateAndTheReportSaysWhichIsWhich() throws {
        var entries = [RecordedEntry(sequence: 1, entry: VehicleRecord(name: "Golf").entry(subject: "golf", origin: "config"), recordedAt: nil)]
        // A person's reading a week before; then trip 1 read by the adapter at engine start
        // (20 s after the trip's GPS start) and stop; trip 2 starts at a person's reading;
        // trip 3 has none near it.
        entries.append(try Self.reading("2026-03-01T08:00:00Z", 20_000, origin: "cli", seq: 2))
        entries.append(try Self.reading("2026-03-08T09:00:20Z", 20_512.4, origin: "obd", seq: 3))
        entries.append(try Self.reading("2026-03-08T09:40:05Z", 20_555.1, origin: "obd", seq: 4))
        entries.append(try Self.reading("2026-03-09T07:58:00Z", 20_560, origin: "web", seq: 5))
        let garage = Garage(entries: entries)
        let trips = [
            try ReportTests.trip(1, "2026-03-08T09:00:00Z", minutes: 40, km: 41.9),
            try ReportTests.trip(2, "2026-03-09T08:00:00Z", minutes: 20, km: 10),
            try ReportTests.trip(3, "2026-03-12T08:00:00Z", minutes: 20, km: 5),
        ]
        let legs = try trips.map { OdometerCalibration.Leg(start: try #require($0.startedAt), km: $0.distance / 1000) }
        let calibration = OdometerCalibration(anchors: garage.anchors(vehicle: "golf"), legs: legs)
        let report = MileageReport(year: 2026, vehicle: nil, trips: trips, garage: garage, calibrations: ["golf": calibration],
                                   seal: .init(sequence: 5, chainHead: [], checkpointSequence: nil))
        let rows = report.rows
        #expect(rows[0].startOdometer == 20_512.4 && rows[0].endOdometer == 20_555.1)
        #expect(rows[0].startOdometerSource == .reading(origin: "obd") && rows[0].endOdometerSource == .reading(origin: "obd"))
        // Trip 2: the person's reading at its start; its end is that plus the calibrated distance.
        #expect(rows[1].startOdometer == 20_560 && rows[1].startOdometerSource == .reading(origin: "web"))
        #expect(rows[1].endOdometerSource == .estimate && abs((rows[1].endOdometer ?? 0) - (20_560 + calibration.factor * 10)) < 1e-9)
        // Trip 3: estimates only, from the reading before it and the GPS km since.
        let third = try Self.time("2026-03-12T08:00:00Z")
        #expect(rows[2].startOdometerSource == .estimate && rows[2].startOdometer == calibration.estimate(at: third))

        let csv = report.csv.split(separator: "\n").map(String.init)
        let column = try #require(MileageReport.csvHeader.firstIndex(of: "odometer_source"))
        // The columns up to odometer_source hold no commas (no quoting to undo).
        func source(_ line: String) -> String { line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)[column] }
        #expect(csv[1].hasPrefix("1,2026-03-08,09:00,09:40,golf,20512.4,20555.1,") && source(csv[1]) == "reading (obd)", "\(csv[1])")
        #expect(source(csv[2]).hasPrefix("start: reading (web); end: estimate: reading + GPS km"), "\(csv[2])")
        #expect(source(csv[3]).hasPrefix("estimate: reading + GPS km"), "\(csv[3])")
        let html = report.html
        #expect(html.contains("<td class=\"n\">20512.4</td><td class=\"n\">20555.1</td>") && html.contains("<td class=\"n\">20560.0</td><td class=\"n\">≈ "))
    }
}
