// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookExport
import Testing

/// `trips export` arguments to a selection, and the trip in words.
@Suite struct SelectionAndTextTests {
    func problem(_ a: TripSelectionArguments) -> String? {
        do {
            _ = try a.selection()
            return nil
        } catch {
            return error.description
        }
    }

    @Test func numbersOrAllButNotBothAndFiltersOnlyWithAll() throws {
        #expect(problem(TripSelectionArguments()) == "give trip numbers or --all")
        #expect(problem(TripSelectionArguments(ids: ["3"], all: true)) == "give trip numbers or --all, not both")
        #expect(problem(TripSelectionArguments(ids: ["3"], since: "2026-01-01"))?.hasPrefix("--since, --until") == true)
        #expect(problem(TripSelectionArguments(ids: ["x7"])) == "not a trip number: x7")
        #expect(problem(TripSelectionArguments(ids: ["0"])) == "not a trip number: 0")
        #expect(problem(TripSelectionArguments(all: true, vehicle: "")) == "--vehicle needs a vehicle id")
        #expect(problem(TripSelectionArguments(all: true, since: "22.11.2026"))
            == "--since: expected \(LocalTimeInput.forms), got \"22.11.2026\"")
        #expect(problem(TripSelectionArguments(all: true, since: "2026-11-23", until: "2026-11-22"))
            == "--since must come before --until")
        #expect(try TripSelectionArguments(ids: ["3", "12"]).selection() == .trips([TripID(3), TripID(12)]))
    }

    @Test func datesAreLocalDaysWithUntilInclusiveAndTimesAreExact() throws {
        let args = TripSelectionArguments(all: true, since: "2026-11-22", until: "2026-11-22", vehicle: "golf")
        // In UTC+1 the 22nd runs from 21 Nov 23:00 UTC to 22 Nov 23:00 UTC.
        guard let plusOne = TimeZoneRules(name: "UTC+1", posixRule: "XXX-1"), case .matching(let q) = try args.selection(zone: plusOne) else {
            Issue.record("not a query")
            return
        }
        #expect(q.since == ISO8601.parse("2026-11-21T23:00:00Z"))
        #expect(q.until == ISO8601.parse("2026-11-22T23:00:00Z"))
        #expect(q.vehicleID == "golf" && !q.includeDiscarded)
        let exact = TripSelectionArguments(all: true, since: "2026-11-22T10:15:00Z", includeDiscarded: true)
        // Exports leave voided trips out unless asked (`--include-voided`).
        #expect(try exact.selection() == .matching(TripQuery(since: ISO8601.parse("2026-11-22T10:15:00Z"), includeDiscarded: true, includeVoided: false)))
    }

    @Test func shareSummaryReadsAsTheSeedAppWroteIt() {
        let trip = TripOverview(
            id: TripID(4), vehicleID: "golf", startedAt: ISO8601.parse("2029-11-17T11:22:25Z"), startReason: "power:ACAD",
            distance: 242_712, duration: 2 * 3600 + 58 * 60 + 10, averageSpeed: 22.7, maxSpeed: 36.2)
        #expect(TripText.shareSummary(trip, units: .metric, vehicleName: "Golf")
            == "Trip on 17 Nov, 242.7 km in 2 h 58 min, avg 82 km/h, max 130 km/h, Golf")
        #expect(TripText.shareSummary(trip, units: .imperial)
            == "Trip on 17 Nov, 150.8 mi in 2 h 58 min, avg 51 mph, max 81 mph, golf")
        // Late in the evening UTC is the next morning further east.
        var late = trip
        late.startedAt = ISO8601.parse("2029-11-17T23:30:00Z")
        #expect(TripText.shareSummary(late, units: .metric, utcOffset: 3600).hasPrefix("Trip on 18 Nov"))
    }

    @Test func reasonsInWordsKeepTheRecordedReason() {
        #expect(TripText.reason("power:ACAD") == "power supply ACAD (power:ACAD)")
        #expect(TripText.reason("recovered") == "recovered after a power loss (recovered)")
        #expect(TripText.reason("something-new") == "something-new")
        #expect(NumberText.duration(40) == "40 s")
        #expect(NumberText.duration(45 * 60 + 10) == "45 min")
        #expect(NumberText.duration(3 * 3600 + 4 * 60) == "3 h 4 min")
        #expect(NumberText.fixed(-0.04, places: 1) == "0.0")
        #expect(NumberText.fixed(2.05, places: 2) == "2.05")
    }
}
