// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookGarage
import LogbookJournal
import LogbookRecords
import LogbookTestSupport
import LogbookUplink
import Testing

@Suite struct LedgerAndCursorTests {
    @Test func theLedgerReadsTheCLIsRecordsFoldsCorrectionsAndSurvivesItsFileForm() throws {
        let feed = LedgerFeed()
        feed.trip(1, "golf", 10_000, hour: 1)
        feed.entry(OdometerRecord(vehicle: "golf", at: feed.time(hour: 3), odometerKm: 1000), subject: "golf@3")
        feed.trip(2, "golf", 2_500, hour: 4)
        feed.trip(3, "golf", 30, hour: 5, discarded: true)
        feed.trip(4, nil, 700, hour: 6)
        feed.entry(VehicleRecord(name: "Golf", make: "VW"), subject: "golf")
        feed.amend(VehicleRecord.self, subject: "golf", .object([("name", .string("Blue Golf"))]))
        var view = feed.view()
        var golf = try #require(view["golf"])
        #expect(golf.loggedMeters == 12_500)
        #expect(golf.odometerKm == 1002.5)  // the reading plus what was driven since
        #expect(golf.lastTrip?.number == TripID(2) && golf.lastTrip?.distance == 2_500)  // the discarded trip is not "the last trip"
        #expect(golf.record.name == "Blue Golf" && golf.info.make == "VW")
        #expect(view["car"]?.loggedMeters == 700)
        #expect(view.lastVehicle == "car")

        // A voided trip no longer counts; an assigned trip moves to its vehicle.
        feed.entry(TripVoidRecord(reason: "test drive"), subject: "2")
        feed.entry(TripAssignRecord(vehicle: "golf"), subject: "4")
        view = feed.view()
        golf = try #require(view["golf"])
        #expect(golf.loggedMeters == 10_700)
        #expect(golf.odometerKm == 1000.7)
        #expect(golf.lastTrip?.number == TripID(4))
        #expect(view["car"]?.loggedMeters == 0 && view["car"]?.lastTripWithdrawn == true)
        #expect(golf.lastTripWithdrawn == false)

        // Fuel economy by the full-tank method, service due from the calibrated odometer.
        feed.entry(FuelRecord(vehicle: "golf", at: feed.time(hour: 7), odometerKm: 1000, litres: 40, price: 70, currency: "EUR"), subject: "golf@7")
        feed.entry(FuelRecord(vehicle: "golf", at: feed.time(hour: 8), odometerKm: 1500, litres: 35, price: 60, currency: "EUR"), subject: "golf@8")
        feed.entry(ServiceTaskRecord(vehicle: "golf", name: "Oil", everyKm: 1_200, lastDoneKm: 0), subject: "golf-oil")
        view = feed.view()
        golf = try #require(view["golf"])
        #expect(abs((golf.fuelEconomy ?? 0) - 7) < 1e-9)
        #expect(golf.service?.task.id == "golf-oil" && golf.service?.state == .overdue, "\(String(describing: golf.service))")
        let state = VehicleState.state(vehicle: "golf", live: nil, figures: golf)
        #expect(state["fuel_economy_l_100km"]?.doubleValue == 7 && state["service_due"]?.stringValue == "overdue")
        #expect(state["last_trip_end"]?.stringValue != nil && VehicleState.lastTrip(golf)?["trip"]?.doubleValue == 4)
        #expect(VehicleState.lastTrip(view["car"]) == nil)

        // The file form, and a rewind that takes the corrections back.
        let ledger = feed.ledger
        #expect(VehicleLedger(json: try JSONValue.parse(ledger.json.serialized)) == ledger)
        var rewound = ledger
        rewound.rewind(to: feed.sequenceBefore(type: TripVoidRecord.type))
        #expect(LedgerView(ledger: rewound, configured: [], now: feed.time(hour: 9))["golf"]?.loggedMeters == 12_500)
        // A record delivered again changes nothing.
        var again = ledger
        #expect(!again.apply(feed.records[0], defaultVehicle: "car") && again == ledger)
    }

    @Test func aSplitTripIsMeasuredFromItsPointsAsTheIndexMeasuresIt() throws {
        let feed = LedgerFeed()
        let points = (0..<11).map { i in
            TripPoint(time: feed.time(hour: 1, minutes: Double(i)), latitude: 47 + Double(i) * 0.001, longitude: 8)
        }
        feed.trip(1, "golf", 1_200, hour: 1, points: points)
        feed.entry(TripSplitRecord(at: feed.time(hour: 1, minutes: 4), newTrip: TripID(2)), subject: "1")
        var ledger = feed.ledger
        let parts = ledger.unmeasuredParts(ledger.corrections)
        #expect(parts.count == 2)
        for p in parts { ledger.measure(p, points: points) }
        #expect(ledger.unmeasuredParts(ledger.corrections).isEmpty)
        let trips = CorrectedTrip.all(ledger, corrections: ledger.corrections)
        #expect(trips.map(\.number) == [TripID(1), TripID(2)])
        // A step counts for the part that holds its end point: 3 of the 10 end before 4 minutes.
        #expect(abs(trips[0].distance - 360) < 0.01 && abs(trips[1].distance - 840) < 0.01, "\(trips.map(\.distance))")
        #expect(trips[1].splitFrom == TripID(1) && trips[1].start == feed.time(hour: 1, minutes: 4))
        let view = LedgerView(ledger: ledger, configured: [], now: feed.time(hour: 2))
        #expect(view["golf"]?.lastTrip?.number == TripID(2) && abs((view["golf"]?.loggedMeters ?? 0) - 1_200) < 0.01)
    }

    @Test func aReopenedTripCountsOnceWithItsWholeDistance() throws {
        let feed = LedgerFeed()
        func end(_ reason: String, _ m: Double, hour: Double) {
            feed.add(.tripEnded(TripEnded(id: TripID(5), reason: reason, gpsTime: feed.time(hour: hour), summary: TripSummary(
                distance: m, duration: 60, maxSpeed: 1, averageSpeed: 1, pointCount: 1))))
        }
        feed.add(.tripStarted(TripStarted(id: TripID(5), vehicleID: "golf", reason: "service", gpsTime: feed.time(hour: 1),
                                          monotonicNanoseconds: 1, bootID: "b")))
        end("recovered", 4_000, hour: 1.5)
        #expect(feed.view()["golf"]?.loggedMeters == 4_000)
        feed.add(.tripReopened(TripReopened(
            id: TripID(5), vehicleID: "golf", startReason: "service", startTime: feed.time(hour: 1), previousEndReason: "recovered",
            from: feed.time(hour: 1.5), gpsTime: feed.time(hour: 1.51),
            summary: TripSummary(distance: 4_000, duration: 60, maxSpeed: 1, averageSpeed: 1, pointCount: 1),
            lastPoint: nil, monotonicNanoseconds: 2, bootID: "b2")))
        #expect(feed.ledger.trip(TripID(5))?.isOpen == true, "open again after the reopen")
        end("shutdown", 9_000, hour: 2)
        let golf = try #require(feed.view()["golf"])
        #expect(golf.loggedMeters == 9_000, "the first part is not counted twice")
        #expect(golf.lastTrip?.number == TripID(5) && golf.lastTrip?.distance == 9_000)
        #expect(feed.ledger.trips.count == 1)
        #expect(VehicleLedger(json: try JSONValue.parse(feed.ledger.json.serialized)) == feed.ledger)
    }

    @Test func cursorsAreSavedAtomicallyAndForeignOrDamagedFilesAreIgnored() throws {
        let dir = try TemporaryDirectory("cur")
        defer { dir.remove() }
        let store = CursorStore(directory: dir.path)
        #expect(try store.load(sink: "mqtt") == nil)
        let c = SinkCursor(deviceID: "lb-1", position: JournalPosition(sequence: 123_456_789_012, segment: "0000000000000001-00000001.seg",
                                                                        checkpointHead: [1, 2, 255]),
                           lastPointTime: GPSTime(nanoseconds: 1_857_906_686_123_456_789), acknowledgedAt: 42, state: .object([("k", .bool(true))]))
        try store.save(c, sink: "mqtt")
        #expect(try store.load(sink: "mqtt") == c)
        #expect(!FileManager.default.fileExists(atPath: store.path(sink: "mqtt") + ".tmp"))
        try "{not json".write(toFile: store.path(sink: "postgres"), atomically: true, encoding: .utf8)
        #expect(try store.load(sink: "postgres") == nil)
    }

    @Test func theRateLimiterHoldsABacklogToItsRate() {
        var r = RateLimiter(rate: 1000)
        var t = 0.0
        var sent = 0
        while t < 10 {
            let wait = r.take(250, now: t)
            sent += 250
            t += max(wait, 0.001)
        }
        // One second of burst, then the rate: about 11,000 points in 10 s.
        #expect(sent >= 10_000 && sent <= 11_500, "\(sent)")
        var unlimited = RateLimiter(rate: 0)
        #expect(unlimited.take(1_000_000, now: 0) == 0)
    }
}

/// Journal records for the ledger's unit tests, numbered as the journal numbers them.
final class LedgerFeed {
    var records: [JournalEntry] = []
    var ledger = VehicleLedger()
    private var sequence: UInt64 = 0
    let base = GPSTime(seconds: 1_767_225_600)  // 2026-01-01

    func time(hour: Double, minutes: Double = 0) -> GPSTime { GPSTime(nanoseconds: base.nanoseconds + Int64((hour * 3600 + minutes * 60) * 1e9)) }

    func add(_ record: JournalRecord, count: Int = 1) {
        let e = JournalEntry(sequence: sequence + 1, record: record)
        sequence += UInt64(count)
        records.append(e)
        ledger.apply(e, defaultVehicle: "car")
    }

    func trip(_ id: UInt64, _ vehicle: String?, _ metres: Double, hour: Double, discarded: Bool = false, points: [TripPoint] = []) {
        add(.tripStarted(TripStarted(id: TripID(id), vehicleID: vehicle, reason: "manual", gpsTime: time(hour: hour), monotonicNanoseconds: 1, bootID: "b")))
        if !points.isEmpty { add(.points(TripID(id), points), count: points.count) }
        add(.tripEnded(TripEnded(id: TripID(id), reason: "manual", gpsTime: time(hour: hour + 0.5), summary: TripSummary(
            distance: metres, duration: 1800, maxSpeed: 1, averageSpeed: 1, pointCount: max(points.count, 1)), discarded: discarded)))
    }

    func entry(_ record: some EntryRecord, subject: String) {
        add(.entry(UserEntry(record.entry(subject: subject, origin: "cli"), recordedAt: time(hour: 0))))
    }

    func amend<R: EntryRecord>(_ type: R.Type, subject: String, _ fields: JSONValue) {
        add(.entry(UserEntry(type: R.type, action: .amend, subject: subject, fields: fields, recordedAt: 0, origin: "web")))
    }

    /// The sequence just before the first entry of `type`.
    func sequenceBefore(type: String) -> UInt64 {
        for e in records { if case .entry(let u) = e.record, u.type == type { return e.sequence - 1 } }
        return sequence
    }

    func view() -> LedgerView { LedgerView(ledger: ledger, configured: [], now: time(hour: 9)) }
}
