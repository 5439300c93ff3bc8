// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookGarage
import LogbookRecords
import Testing

@Suite struct ReportTests {
    static func trip(_ id: UInt64, _ start: String, minutes: Int64, km: Double, vehicle: String = "golf") throws -> TripOverview {
        let s = try #require(ISO8601.parse(start))
        return TripOverview(
            id: TripID(id), vehicleID: vehicle, startedAt: s, endedAt: GPSTime(nanoseconds: s.nanoseconds + minutes * 60_000_000_000),
            startReason: "power", endReason: "power", distance: km * 1000, start: .init(latitude: 48.137154, longitude: 11.576124),
            end: .init(latitude: 48.1, longitude: 11.5), startPlace: id == 3 ? "Home, Munich" : nil)
    }

    @Test func rowsTotalsMonthsAndSeal() throws {
        var seq: UInt64 = 500
        var entries = try FixtureGarage.entries()
        entries.append(try FixtureGarage.entry("trip.classify", [("trip", .number(1)), ("class", .string("private"))], seq: &seq))
        entries.append(try FixtureGarage.entry("trip.classify", [("trip", .number(1)), ("class", .string("business")), ("purpose", .string("Visit, \"ACME\"")), ("partner", .string("ACME GmbH"))], seq: &seq))
        entries.append(try FixtureGarage.entry("trip.classify", [("trip", .number(2)), ("class", .string("commute"))], seq: &seq))
        let garage = Garage(entries: entries)
        // golf's readings: 10000 on Jan 5 … 12500 on Mar 30; GPS legs of exactly the readings' deltas.
        let calibration = OdometerCalibration(
            anchors: garage.anchors(vehicle: "golf"),
            legs: [.init(start: try #require(ISO8601.parse("2026-01-06T08:00:00Z")), km: 400)])
        let trips = [
            try Self.trip(2, "2026-01-06T08:00:00Z", minutes: 30, km: 25.25),
            try Self.trip(1, "2026-01-05T12:00:00Z", minutes: 60, km: 80.5),
            try Self.trip(3, "2026-02-02T07:00:00Z", minutes: 10, km: 4),
        ]
        let seal = MileageReport.JournalSeal(sequence: 4711, chainHead: [0xAB, 0x01, 0xFF], checkpointSequence: 4700)
        let report = MileageReport(year: 2026, vehicle: nil, trips: trips, garage: garage, calibrations: ["golf": calibration], seal: seal)
        let lines = report.csv.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == MileageReport.csvHeader.joined(separator: ","))
        // Trip 1 starts after the Jan 5 reading (10000) with no leg before it: ≈ 10000.
        #expect(lines[1].hasPrefix("1,2026-01-05,12:00,13:00,golf,10000.0,"))
        #expect(lines[1].contains(",business,\"Visit, \"\"ACME\"\"\",ACME GmbH,,80.5,,,"))
        #expect(lines[1].contains("changed 1x"))
        #expect(lines[2].contains(",commute,") && lines[2].contains(",,,25.3,2026-04-01T00:00:00Z,,,recorded,0,,recorded,person,"))
        #expect(lines[3].contains("\"Home, Munich\",48.10000 11.50000,4.0,unclassified"))
        #expect(Array(lines.suffix(10)) == [
            "#total,business,80.5", "#total,private,0.0", "#total,commute,25.3", "#total,unclassified,4.0", "#time_zone,UTC",
            "#month,2026-01,business=80.5,private=0.0,commute=25.3,unclassified=0.0",
            "#month,2026-02,business=0.0,private=0.0,commute=0.0,unclassified=4.0",
            "#chain_head,4711,ab01ff", "#checkpoint_seq,4700", "",
        ])
        let html = report.html
        #expect(html.contains("@page { size: A4 landscape") && html.contains("Visit, &quot;ACME&quot;") && html.contains("ab01ff"))
    }

    @Test func spreadsheetFormulasAreDefused() {
        let garage = Garage(entries: [])
        let trip = TripOverview(id: TripID(9), startedAt: GPSTime(seconds: 1_767_225_600), startReason: "x", startPlace: "=HYPERLINK(\"x\")")
        let csv = MileageReport(year: 2026, vehicle: nil, trips: [trip], garage: garage, calibrations: [:], seal: .init(sequence: 0, chainHead: [], checkpointSequence: nil)).csv
        #expect(csv.contains("\"'=HYPERLINK(\"\"x\"\")\""))
    }
}

@Suite struct ReportChangesTests {
    @Test func changesAfterTheTripAreListedAndLateOnesFlagged() throws {
        let trip = try ReportTests.trip(1, "2026-01-05T12:00:00Z", minutes: 60, km: 10)
        let end = try #require(trip.endedAt)
        func change(_ seq: UInt64, after hours: Int64, _ cmd: String, _ fields: [(String, JSONValue)]) throws -> RecordedEntry {
            let e = try #require(EntryCommand.named(cmd)).draft(.object([("cmd", .string(cmd))] + fields + [("origin", .string("web"))]), now: end)
            return RecordedEntry(sequence: seq, entry: e, recordedAt: GPSTime(nanoseconds: end.nanoseconds + hours * 3_600_000_000_000))
        }
        let history = [
            try change(1, after: -1, "trip.classify", [("trip", .number(1)), ("class", .string("private"))]),  // during the trip
            try change(2, after: 2, "trip.classify", [("trip", .number(1)), ("class", .string("business"))]),
            try change(3, after: 24 * 9, "trip.assign", [("trip", .number(1)), ("driver", .string("Anna"))]),
        ]
        var corrected = trip
        corrected.driver = "Anna"
        corrected.corrected = true
        let garage = Garage(entries: Array(history.prefix(2)))
        let seal = MileageReport.JournalSeal(sequence: 9, chainHead: [1], checkpointSequence: nil)
        let report = MileageReport(year: 2026, vehicle: nil, trips: [corrected], garage: garage, calibrations: [:], seal: seal, histories: [TripID(1): history])
        let row = try #require(report.rows.first)
        #expect(row.changes.map(\.entry.sequence) == [2, 3] && row.late && row.status == "corrected" && row.driver == "Anna")
        let csv = report.csv.split(separator: "\n").map(String.init)
        #expect(csv.contains("#change,1,2026-01-05T15:00:00Z,2 h 0 min,classified business,web,"))
        #expect(csv.contains("#change,1,2026-01-14T13:00:00Z,9 d 0 h,assigned driver Anna,web,late"))
        #expect(csv[1].contains(",Anna,corrected,2,yes,recorded,person,"))
        #expect(report.html.contains("Changes after the trip") && report.html.contains("9 d 0 h (late)"))
    }

    @Test func aVoidedTripIsListedAsVoidAndNotCounted() throws {
        var trip = try ReportTests.trip(1, "2026-01-05T12:00:00Z", minutes: 60, km: 10)
        trip.voided = true
        trip.voidReason = "test drive"
        let seal = MileageReport.JournalSeal(sequence: 9, chainHead: [1], checkpointSequence: nil)
        let report = MileageReport(year: 2026, vehicle: nil, trips: [trip], garage: Garage(entries: []), calibrations: [:], seal: seal)
        #expect(report.rows.first?.tripClass == "void" && report.totals.values.reduce(0, +) == 0)
        #expect(report.html.contains("void: test drive"))
    }
}
