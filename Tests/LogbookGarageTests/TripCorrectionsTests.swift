// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookGarage
import LogbookRecords
import Testing

/// The fold every reader shares: corrections over recorded trips, in journal order.
@Suite struct TripCorrectionsTests {
    static let hour: Int64 = 3_600_000_000_000
    static func t(_ h: Int64) -> GPSTime { GPSTime(nanoseconds: 1_900_000_000_000_000_000 + h * hour) }

    /// Trips 1 (golf, 0–1 h), 2 (golf, 2–3 h), 3 (van, 4–5 h).
    static let spans: [TripID: TripCorrections.RecordedSpan] = [
        TripID(1): .init(id: TripID(1), vehicle: "golf", start: t(0), end: t(1)),
        TripID(2): .init(id: TripID(2), vehicle: "golf", start: t(2), end: t(3)),
        TripID(3): .init(id: TripID(3), vehicle: "van", start: t(4), end: t(5)),
    ]

    func fold(_ entries: [(String, String, RecordEntry.Action, JSONValue)]) -> TripCorrections {
        var f = TripCorrections(recorded: Self.spans)
        for (i, (type, subject, action, fields)) in entries.enumerated() {
            f.apply(RecordedEntry(
                sequence: UInt64(i + 1), entry: RecordEntry(type: type, action: action, subject: subject, fields: fields, origin: "cli"),
                recordedAt: nil))
        }
        return f
    }

    @Test func voidAndRestore() throws {
        let f = fold([
            ("trip.void", "1", .add, TripVoidRecord(reason: "test drive").fields),
            ("trip.void", "2", .add, .object([])),
            ("trip.void", "2", .void, .object([])),
        ])
        #expect(f.trip(TripID(1))?.voided == true && f.trip(TripID(1))?.voidReason == "test drive")
        #expect(f.trip(TripID(2))?.voided == false && f.trip(TripID(2))?.history.count == 2)
        #expect(f.trip(TripID(3))?.voided == false && f.trips[TripID(3)] == nil, "an untouched trip costs nothing")
    }

    @Test func assignKeepsTheFieldsALaterAssignmentDoesNotCarry() throws {
        let f = fold([
            ("trip.assign", "1", .add, TripAssignRecord(vehicle: "van", driver: "Anna").fields),
            ("trip.assign", "1", .add, TripAssignRecord(driver: "Ben").fields),
        ])
        let trip = try #require(f.trip(TripID(1)))
        #expect(trip.vehicle == "van" && trip.driver == "Ben" && !trip.reshaped)
    }

    @Test func mergeAndSplitReshapeAndNumberStaysStable() throws {
        let f = fold([
            ("trip.merge", "1", .add, TripMergeRecord(with: TripID(2)).fields),
            ("trip.split", "1", .add, TripSplitRecord(at: Self.t(2) , newTrip: TripID(9)).fields),
        ])
        let one = try #require(f.trip(TripID(1))), nine = try #require(f.trip(TripID(9))), two = try #require(f.trip(TripID(2)))
        #expect(two.mergedInto == TripID(1))
        #expect(one.parts == [.init(source: TripID(1))])
        #expect(nine.parts == [.init(source: TripID(2))] && nine.splitFrom == TripID(1) && nine.vehicle == "golf")
        // A split inside a recorded trip cuts it into two stretches.
        let g = fold([("trip.split", "3", .add, TripSplitRecord(at: Self.t(4) + 1_800, newTrip: TripID(7)).fields)])
        #expect(g.trip(TripID(3))?.parts == [.init(source: TripID(3), until: Self.t(4) + 1_800)])
        #expect(g.trip(TripID(7))?.parts == [.init(source: TripID(3), from: Self.t(4) + 1_800)])
    }

    @Test func correctionsThatNoLongerFitChangeNothing() throws {
        let f = fold([
            ("trip.merge", "1", .add, TripMergeRecord(with: TripID(2)).fields),
            ("trip.merge", "3", .add, TripMergeRecord(with: TripID(2)).fields),  // 2 is merged away already
            ("trip.void", "2", .add, .object([])),  // so is this
            ("trip.split", "3", .add, TripSplitRecord(at: Self.t(9), newTrip: TripID(8)).fields),  // outside trip 3
            ("trip.split", "3", .add, TripSplitRecord(at: Self.t(4) + 5).fields),  // no number handed out
            ("trip.merge", "4", .add, TripMergeRecord(with: TripID(3)).fields),  // no trip 4
        ])
        #expect(f.ignored.count == 5)
        #expect(f.trip(TripID(3))?.parts == [.init(source: TripID(3))] && f.trip(TripID(8)) == nil)
        #expect(f.trip(TripID(2))?.mergedInto == TripID(1) && f.trip(TripID(2))?.voided == false)
    }

    @Test func referencedTripsNameSubjectsAndMergePartners() {
        let entries = [
            RecordedEntry(sequence: 1, entry: RecordEntry(type: "trip.merge", action: .add, subject: "1", fields: TripMergeRecord(with: TripID(2)).fields, origin: "cli"), recordedAt: nil),
            RecordedEntry(sequence: 2, entry: RecordEntry(type: "fuel", action: .add, subject: "golf@x", fields: .object([]), origin: "cli"), recordedAt: nil),
        ]
        #expect(TripCorrections.referencedTrips(in: entries) == [TripID(1), TripID(2)])
    }
}

extension GPSTime {
    static func + (t: GPSTime, seconds: Int64) -> GPSTime { GPSTime(nanoseconds: t.nanoseconds + seconds * 1_000_000_000) }
}
