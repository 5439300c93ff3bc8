// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import LogbookTestSupport
import LogbookUplink
import Testing

@Suite struct LedgerAndCursorTests {
    @Test func theLedgerFoldsTripsOdometerAndNamesAndSurvivesItsFileForm() throws {
        var l = VehicleLedger()
        func trip(_ id: UInt64, _ v: String?, _ m: Double, discarded: Bool = false) {
            l.apply(.tripStarted(TripStarted(id: TripID(id), vehicleID: v, reason: "manual", monotonicNanoseconds: 1, bootID: "b")),
                    defaultVehicle: "car")
            l.apply(.tripEnded(TripEnded(id: TripID(id), reason: "manual", summary: TripSummary(
                distance: m, duration: 60, maxSpeed: 1, averageSpeed: 1, pointCount: 1), discarded: discarded)), defaultVehicle: "car")
        }
        trip(1, "golf", 10_000)
        l.apply(.entry(UserEntry(type: "odometer", action: .add, subject: "golf", fields: .object([("km", .number(1000))]), origin: "cli")),
                defaultVehicle: "car")
        trip(2, "golf", 2_500)
        trip(3, "golf", 30, discarded: true)
        trip(4, nil, 700)
        l.apply(.entry(UserEntry(type: "vehicle", action: .amend, subject: "golf", fields: .object([("name", .string("Blue Golf"))]),
                                 origin: "cli")), defaultVehicle: "car")
        let golf = try #require(l.vehicles["golf"])
        #expect(golf.loggedMeters == 12_500)
        #expect(golf.odometerEstimateKm == 1002.5)
        #expect(golf.lastTripMeters == 2_500)  // the discarded trip is not "the last trip"
        #expect(golf.name == "Blue Golf")
        #expect(l.vehicles["car"]?.loggedMeters == 700)
        #expect(l.lastVehicle == "car")
        #expect(VehicleLedger(json: try JSONValue.parse(l.json.serialized)) == l)
    }

    @Test func aReopenedTripCountsOnceWithItsWholeDistance() {
        var l = VehicleLedger()
        func end(_ reason: String, _ m: Double) {
            l.apply(.tripEnded(TripEnded(id: TripID(5), reason: reason, summary: TripSummary(
                distance: m, duration: 60, maxSpeed: 1, averageSpeed: 1, pointCount: 1))), defaultVehicle: "car")
        }
        l.apply(.tripStarted(TripStarted(id: TripID(5), vehicleID: "golf", reason: "service", monotonicNanoseconds: 1, bootID: "b")),
                defaultVehicle: "car")
        end("recovered", 4_000)
        #expect(l.vehicles["golf"]?.loggedMeters == 4_000)
        l.apply(.tripReopened(TripReopened(
            id: TripID(5), vehicleID: "golf", startReason: "service", startTime: nil, previousEndReason: "recovered",
            from: nil, gpsTime: nil, summary: TripSummary(distance: 4_000, duration: 60, maxSpeed: 1, averageSpeed: 1, pointCount: 1),
            lastPoint: nil, monotonicNanoseconds: 2, bootID: "b2")), defaultVehicle: "car")
        #expect(l.openTrips[5] == "golf")
        end("shutdown", 9_000)
        #expect(l.vehicles["golf"]?.loggedMeters == 9_000, "the first part is not counted twice")
        #expect(l.vehicles["golf"]?.lastTripMeters == 9_000)
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
