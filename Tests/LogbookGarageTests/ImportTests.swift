// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookGarage
import LogbookRecords
import Testing

@Suite struct ImportTests {
    static func fixture(_ name: String) throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("fixtures/garage/\(name)"), encoding: .utf8)
    }

    static func value(_ fields: [(String, JSONValue)], _ key: String) -> JSONValue? { fields.first { $0.0 == key }?.1 }

    @Test func lubeLoggerRowsBecomeFillUpsWithTheFullTankFlags() throws {
        let parsed = try FuelImport(text: try Self.fixture("lubelogger-fuel.csv"), format: .lubelogger, options: .init(vehicle: "golf", currency: "EUR", dateOrder: .mdy))
        #expect(parsed.problems.isEmpty)
        #expect(parsed.rows.map(\.line) == [2, 3, 4, 5])
        #expect(parsed.rows.map { Self.value($0.fields, "at") } == ["2026-01-05T00:00:00Z", "2026-01-20T00:00:00Z", "2026-02-01T00:00:00Z", "2026-02-20T00:00:00Z"].map(JSONValue.string))
        #expect(parsed.rows.map { Self.value($0.fields, "full") } == [true, false, true, true].map(JSONValue.bool))
        #expect(Self.value(parsed.rows[2].fields, "note") == .string("partial before, \"full\" now"))
        // Through the validator into a garage: 10000→10800 takes 20 + 25 L, 10800→11400 36 L.
        var seq: UInt64 = 0
        let entries = try parsed.rows.map { row in
            try FixtureGarage.entry("fuel.add", row.fields, seq: &seq)
        }
        let intervals = FuelEconomy.intervals(Garage(entries: entries).activeFills())
        #expect(intervals.map(\.litres) == [45, 36])
        #expect(abs((FuelEconomy.litresPer100km(intervals) ?? 0) - 81.0 / 1400 * 100) < 1e-12)
    }

    @Test func fuellyImperialIsConverted() throws {
        let parsed = try FuelImport(text: try Self.fixture("fuelly-fuel.csv"), format: .fuelly, options: .init(vehicle: "van", currency: "USD", imperial: true, dateOrder: .mdy))
        #expect(parsed.problems.isEmpty)
        let first = parsed.rows[0].fields
        #expect(Self.value(first, "odometer_km") == .number(49_999.1))  // 31068 mi
        #expect(Self.value(first, "litres") == .number(59.999))  // 15.85 US gal
        #expect(Self.value(first, "price") == .number(57.04))  // 3.599 $/gal × 15.85 gal
        #expect(Self.value(first, "station") == .string("Shell") && Self.value(first, "lat") == .number(40.7128))
        #expect(Self.value(parsed.rows[1].fields, "lat") == nil)  // 0,0 means none
        #expect(parsed.rows.map { Self.value($0.fields, "full") } == [true, true, false, true].map(JSONValue.bool))
    }

    @Test func badRowsAreReportedByLine() throws {
        let parsed = try FuelImport(text: try Self.fixture("lubelogger-bad.csv"), format: .lubelogger, options: .init(vehicle: "golf", currency: "EUR", dateOrder: .mdy))
        #expect(parsed.problems.map(\.line) == [3, 4, 6])
        #expect(parsed.problems.map(\.message) == ["not a date: 13/40/2026 (read as mdy; --date-order mdy, dmy or ymd)", "odometer is not a number: ten thousand", "IsFillToFull is not true/false: Maybe"])
        #expect(throws: EntryProblem("bad_request", "line 1: not a fuelly export (needs the columns fuelup_date, odometer, gallons or litres, price)")) {
            try FuelImport(text: try Self.fixture("lubelogger-fuel.csv"), format: .fuelly, options: .init(vehicle: "golf", currency: "EUR"))
        }
    }

    static func lubeLogger(_ dates: [String]) -> String {
        "Date,Odometer,FuelConsumed,Cost,FuelEconomy,IsFillToFull,MissedFuelUp,Notes,Tags\n"
            + dates.enumerated().map { "\($0.element),\(10_000 + $0.offset * 500),40,70,,True,False,," }.joined(separator: "\n") + "\n"
    }

    /// Without --date-order, dates are read in the one order every row fits (a LubeLogger
    /// export with US dates was refused as "ymd" before); an ambiguous file names the flag.
    @Test func dateOrderIsTheOneEveryRowFits() throws {
        let us = try FuelImport(text: Self.lubeLogger(["1/16/2029", "2/3/2029", "3/20/2029"]), format: .lubelogger, options: .init(vehicle: "golf", currency: "USD"))
        #expect(us.problems.isEmpty)
        #expect(us.rows.map { Self.value($0.fields, "at")?.stringValue } == ["2029-01-16T00:00:00Z", "2029-02-03T00:00:00Z", "2029-03-20T00:00:00Z"])
        let eu = try FuelImport(text: Self.lubeLogger(["16.1.2029", "3.2.2029"]), format: .lubelogger, options: .init(vehicle: "golf", currency: "EUR"))
        #expect(eu.rows.map { Self.value($0.fields, "at")?.stringValue } == ["2029-01-16T00:00:00Z", "2029-02-03T00:00:00Z"])
        let iso = try FuelImport(text: Self.lubeLogger(["2029-01-16", "2029-02-03T08:00:00Z"]), format: .lubelogger, options: .init(vehicle: "golf", currency: "EUR"))
        #expect(iso.problems.isEmpty && iso.rows.count == 2)
        #expect(throws: EntryProblem("bad_request", "dates such as 1/6/2029 fit more than one order (mdy, dmy): give --date-order mdy or --date-order dmy")) {
            try FuelImport(text: Self.lubeLogger(["1/6/2029", "2/7/2029"]), format: .lubelogger, options: .init(vehicle: "golf", currency: "EUR"))
        }
        let given = try FuelImport(text: Self.lubeLogger(["1/6/2029", "2/7/2029"]), format: .lubelogger, options: .init(vehicle: "golf", currency: "EUR", dateOrder: .dmy))
        #expect(given.rows.map { Self.value($0.fields, "at")?.stringValue } == ["2029-06-01T00:00:00Z", "2029-07-02T00:00:00Z"])
    }
}
