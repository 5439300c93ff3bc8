// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookGarage
import LogbookRecords
import Testing

/// What `Garage.check` refuses before a correction is written: the CLI and the web app run it
/// against the index (here a fixture of trips as the index would answer).
@Suite struct CorrectionChecksTests {
    static let h: Int64 = 3_600_000_000_000
    static func trip(_ id: UInt64, _ vehicle: String, _ startHour: Int64, voided: Bool = false, open: Bool = false) -> TripOverview {
        var t = TripOverview(
            id: TripID(id), vehicleID: vehicle, startedAt: GPSTime(nanoseconds: startHour * h),
            endedAt: open ? nil : GPSTime(nanoseconds: (startHour + 1) * h), startReason: "manual", endReason: open ? nil : "manual",
            state: open ? .open : .closed)
        t.voided = voided
        return t
    }

    static let trips = FixtureTrips([trip(1, "golf", 0), trip(2, "golf", 2), trip(3, "van", 4), trip(4, "golf", 6, voided: true), trip(5, "golf", 8, open: true)])

    func problem(_ cmd: String, _ fields: [(String, JSONValue)]) throws -> EntryProblem? {
        var seq: UInt64 = 0
        var entries = try FixtureGarage.entries()
        entries.append(try FixtureGarage.entry("vehicle.add", [("vehicle", .string("old"))], seq: &seq))
        entries.append(try FixtureGarage.entry("vehicle.retire", [("vehicle", .string("old"))], seq: &seq))
        let garage = Garage(entries: entries)
        let command = try #require(EntryCommand.named(cmd))
        let entry = try command.draft(.object([("cmd", .string(cmd))] + fields), now: GPSTime(nanoseconds: 0))
        do {
            try garage.check(entry, trips: Self.trips)
            return nil
        } catch {
            return error
        }
    }

    @Test func goodCorrectionsPass() throws {
        #expect(try problem("trip.void", [("trip", .number(1)), ("reason", .string("test"))]) == nil)
        #expect(try problem("trip.restore", [("trip", .number(4))]) == nil)
        #expect(try problem("trip.assign", [("trip", .number(1)), ("vehicle", .string("van")), ("driver", .string("Anna"))]) == nil)
        #expect(try problem("trip.merge", [("trip", .number(1)), ("with", .number(2))]) == nil)
        #expect(try problem("trip.split", [("trip", .number(1)), ("at", .string(ISO8601.format(GPSTime(nanoseconds: Self.h / 2))))]) == nil)
    }

    @Test func badCorrectionsAreRefusedWithTheirCode() throws {
        #expect(try problem("trip.void", [("trip", .number(99))])?.code == "unknown_trip")
        #expect(try problem("trip.void", [("trip", .number(4))])?.message == "trip 4 is void already")
        #expect(try problem("trip.restore", [("trip", .number(1))])?.code == "not_voided")
        #expect(try problem("trip.assign", [("trip", .number(1)), ("vehicle", .string("old"))])?.code == "retired_vehicle")
        #expect(try problem("trip.assign", [("trip", .number(1)), ("vehicle", .string("nope"))])?.code == "unknown_vehicle")
        #expect(try problem("trip.merge", [("trip", .number(2)), ("with", .number(3))])?.message.contains("different vehicles") == true)
        // 2 is golf's next trip after 1; 5 is not (and still being recorded).
        #expect(try problem("trip.merge", [("trip", .number(1)), ("with", .number(5))])?.code == "open_trip")
        #expect(try problem("trip.merge", [("trip", .number(2)), ("with", .number(1))])?.code == "not_consecutive")
        #expect(try problem("trip.split", [("trip", .number(1)), ("at", .string(ISO8601.format(GPSTime(nanoseconds: 3 * Self.h))))])?.code == "outside_trip")
        #expect(try problem("trip.split", [("trip", .number(5)), ("at", .string(ISO8601.format(GPSTime(nanoseconds: 8 * Self.h + 5))))])?.code == "open_trip")
    }

    @Test func aMistypedReadingCanBeWithdrawnAndFillUpsFollowAgain() throws {
        var seq: UInt64 = 900
        var entries = try FixtureGarage.entries()
        // golf has 12,500 km at Mar 30; a reading typed as 125,000 km blocks every later fill-up.
        entries.append(try FixtureGarage.entry("odometer.add", [("vehicle", .string("golf")), ("at", .string("2026-04-01T00:00:00Z")), ("odometer_km", .number(125_000))], seq: &seq))
        let fill = try #require(EntryCommand.named("fuel.add")).draft(
            .object([("cmd", .string("fuel.add"))] + FixtureGarage.fill("golf", "2026-04-10T00:00:00Z", 12_900, 30, 50, "EUR")), now: GPSTime(nanoseconds: 0))
        #expect(throws: EntryProblem.self) { try Garage(entries: entries).check(fill) }
        let id = try #require(entries.last?.entry.subject)
        entries.append(try FixtureGarage.entry("odometer.void", [("subject", .string(id)), ("reason", .string("typo"))], seq: &seq))
        try Garage(entries: entries).check(fill)
        // Amending it to the right value works as well.
        entries.removeLast()
        entries.append(try FixtureGarage.entry("odometer.amend", [("subject", .string(id)), ("odometer_km", .number(12_550))], seq: &seq))
        let garage = Garage(entries: entries)
        try garage.check(fill)
        #expect(garage.reading(id)?.odometerKm == 12_550 && garage.reading(id)?.history.count == 2)
    }
}
