// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import LogbookPostgres
import LogbookRecords
import LogbookTestSupport
import LogbookUplink
import Logging
import Testing

/// Trip corrections in the fleet store (a real PostgreSQL), against the ledger the MQTT sink
/// folds from the same records.
@Suite(.serialized) struct FleetCorrectionsTests {
    @Test func correctionsLandInTheTripRowsAndARewindTakesThemBack() async throws {
        let dir = try TemporaryDirectory("pgfix")
        defer { dir.remove() }
        let pg = try PostgresCluster(directory: dir.file("pg"))
        let fixture = try await TripsFixture.write(stateDirectory: dir.file("state"), vehicle: "golf", count: 5)
        let t = fixture.trips
        let journal = try JournalWriter.open(
            JournalConfiguration(directory: fixture.journalDirectory, stateDirectory: fixture.stateDirectory), logger: Logger(label: "t"))
        let now = GPSTime(nanoseconds: Int64(Date().timeIntervalSince1970 * 1e9))
        func write(_ r: some EntryRecord, _ trip: TripID) throws -> UInt64 {
            try journal.append(.entry(UserEntry(r.entry(subject: String(trip.rawValue), origin: "cli").numbered(by: journal), recordedAt: now)))
        }
        _ = try write(TripVoidRecord(reason: "test drive"), t[0].id)
        _ = try write(TripAssignRecord(vehicle: "van", driver: "Ann"), t[1].id)
        _ = try write(TripMergeRecord(with: t[3].id), t[2].id)
        let middle = t[4].points[t[4].points.count / 2].time
        let split = try write(TripSplitRecord(at: middle), t[4].id)
        try await journal.sync()
        try await journal.close()

        let key = try #require(Uplink.trustedKey(stateDirectory: fixture.stateDirectory))
        let device = DeviceIdentity(id: DeviceIdentity.derivedID(publicKey: key), publicKey: key)
        let sink = PostgresSink(connector: PostgresConnector(url: pg.url), device: device, vehicles: [], logger: Logger(label: "t"))
        #expect(sink.becomeReady())
        var stream = JournalStream(directory: fixture.journalDirectory)
        var items: [JournalItem] = []
        while true {
            let batch = try stream.read(maxPoints: 100)
            if batch.isEmpty { break }
            try sink.deliver(batch, signal: WorkerSignal())
            items += batch
        }
        var ledger = VehicleLedger()
        for case .entry(let e) in items { ledger.apply(e, defaultVehicle: "car") }
        // Measured from the points as the journal holds them (quantized), as the MQTT sink does.
        let stored = try JournalReader(directory: fixture.journalDirectory).points(of: t[4].id)
        for p in ledger.unmeasuredParts(ledger.corrections) { ledger.measure(p, points: stored) }
        let corrected = CorrectedTrip.all(ledger, corrections: ledger.corrections)
        let newTrip = try #require(corrected.first { $0.splitFrom != nil }?.number)

        func row(_ id: TripID) throws -> [String] {
            try pg.psql("""
                SELECT recorded, voided, coalesce(void_reason, '-'), coalesce(assigned_vehicle_id, '-'), coalesce(driver, '-'),
                    coalesce(merged_into::text, '-'), coalesce(split_from::text, '-'), coalesce(corrected_distance_m::text, '-'), vehicle_id
                FROM trips WHERE trip_id = \(id.rawValue)
                """).split(separator: "|").map(String.init)
        }
        #expect(try row(t[0].id).prefix(3) == ["t", "t", "test drive"])
        #expect(try row(t[1].id)[3...4] == ["van", "Ann"])
        #expect(try row(t[3].id)[5] == String(t[2].id.rawValue))
        #expect(try row(newTrip)[0] == "f" && row(newTrip)[6] == String(t[4].id.rawValue) && row(newTrip)[8] == "golf")
        // The fleet store and the ledger (Home Assistant's sensors) agree on every trip's figures.
        let view = try pg.psql("SELECT trip_id, distance_m, voided, vehicle_id FROM trips_corrected ORDER BY trip_id")
            .split(separator: "\n").map { $0.split(separator: "|").map(String.init) }
        #expect(view.count == corrected.count, "\(view)")
        for c in corrected {
            let r = try #require(view.first { $0[0] == String(c.number.rawValue) }, "trip \(c.number) missing")
            #expect(abs((Double(r[1]) ?? -1) - c.distance) < 0.001 && r[2] == (c.voided ? "t" : "f") && r[3] == c.vehicle, "\(r) vs \(c)")
        }
        let merged = try #require(corrected.first { $0.number == t[2].id })
        #expect(abs(merged.distance - t[2].distance - t[3].distance) < 0.001)
        let parts = corrected.filter { $0.number == t[4].id || $0.number == newTrip }.map(\.distance)
        #expect(parts.count == 2 && abs(parts.reduce(0, +) - t[4].distance) < 0.001 && parts.allSatisfy { $0 > 0 })

        // A rewind to before the split: its row goes, the other corrections stay.
        try sink.deliver([.rewound(from: split + 10, to: split - 1)], signal: WorkerSignal())
        #expect(try pg.psql("SELECT count(*) FROM trips WHERE trip_id = \(newTrip.rawValue)") == "0")
        #expect(try row(t[4].id)[7] == "-")
        #expect(try row(t[3].id)[5] == String(t[2].id.rawValue) && row(t[0].id)[1] == "t")
    }
}
