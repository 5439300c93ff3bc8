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

/// The fleet store against a real PostgreSQL cluster started by the test.
@Suite(.serialized) struct PostgresSinkTests {
    let logger = Logger(label: "test")

    func items(_ dir: String) throws -> [JournalItem] {
        var s = JournalStream(directory: dir)
        var out: [JournalItem] = []
        while true {
            let batch = try s.read(maxPoints: 10_000)
            if batch.isEmpty { return out }
            out += batch
        }
    }

    @Test func schemaMigratesOnceUnderConcurrentStartsAndBatchesAreIdempotent() async throws {
        let dir = try TemporaryDirectory("pgsink")
        defer { dir.remove() }
        let pg = try PostgresCluster(directory: dir.file("pg"))
        let journal = try await JournalFixture.write(stateDirectory: dir.file("state"), limit: 600)
        // Three uplinks starting at once against an empty database.
        let applied = await withTaskGroup(of: [Int].self) { group in
            for _ in 0..<3 {
                group.addTask {
                    guard let c = try? PostgresConnection(url: pg.url) else { return [-1] }
                    return (try? FleetSchema.migrate(c)) ?? [-1]
                }
            }
            return await group.reduce(into: [[Int]]()) { $0.append($1) }
        }
        #expect(applied.sorted { $0.count < $1.count } == [[], [], Array(1...FleetSchema.version)], "\(applied)")
        #expect(try pg.psql("SELECT count(*) FROM schema_migrations") == String(FleetSchema.version))

        let key = try #require(Uplink.trustedKey(stateDirectory: journal.stateDirectory))
        let device = DeviceIdentity(id: DeviceIdentity.derivedID(publicKey: key), publicKey: key)
        let sink = PostgresSink(connector: PostgresConnector(url: pg.url), device: device,
                                vehicles: [ConfiguredVehicle(id: "golf", record: VehicleRecord(name: "Golf", make: "VW"))], logger: logger)
        let signal = WorkerSignal()
        #expect(sink.becomeReady())
        let all = try items(journal.journalDirectory)
        try sink.deliver(all, signal: signal)
        try sink.deliver(Array(all.prefix(all.count / 2)), signal: signal)  // a re-delivery after a crash
        try sink.deliver(all, signal: signal)
        #expect(try pg.psql("SELECT count(*), count(DISTINCT seq), min(seq), max(seq) FROM points")
            == "\(journal.points.count)|\(journal.points.count)|\(journal.points.first!.0)|\(journal.points.last!.0)")
        // Every value as the journal holds it.
        let rows = try pg.psql("SELECT seq, lat, lon, extract(epoch FROM time)::numeric(20,3) FROM points ORDER BY seq")
            .split(separator: "\n")
        #expect(rows.count == journal.points.count)
        for (row, (seq, p)) in zip(rows, journal.points) {
            let f = row.split(separator: "|").map(String.init)
            #expect(UInt64(f[0]) == seq && Double(f[1]) == p.latitude && Double(f[2]) == p.longitude, "\(row)")
            #expect(abs((Double(f[3]) ?? 0) - p.time.seconds) < 0.002, "\(row)")
        }
        #expect(try pg.psql("SELECT count(*), bool_and(end_seq IS NOT NULL) FROM trips") == "1|t")
        #expect(try pg.psql("SELECT count(*) FROM events WHERE kind = 'entry'") == "2")
        let checkpoints = try JournalReader(directory: journal.journalDirectory).checkpoints().count
        #expect(try pg.psql("SELECT count(*) FROM checkpoints") == String(checkpoints))
        // The registry: the configured vehicle, with the journal's `vehicle` entry over it.
        #expect(try pg.psql("SELECT name, make, model, retired FROM vehicles") == "Test golf|VW|Golf|f")

        // A rewind drops what the journal no longer holds.
        let last = journal.points.last!.0
        try sink.deliver([.rewound(from: last, to: last - 10)], signal: signal)
        #expect(try pg.psql("SELECT max(seq) FROM points") == String(last - 10))
        #expect(try pg.psql("SELECT last_seq FROM devices") == String(last - 10))

        // Another journal claiming the same device id is refused.
        let other = DeviceIdentity(id: device.id, publicKey: Array(repeating: 7, count: 32))
        let impostor = PostgresSink(connector: PostgresConnector(url: pg.url), device: other, vehicles: [], logger: logger)
        #expect(!impostor.becomeReady())
        #expect(impostor.retryDelay == 30)
        #expect(impostor.lastError?.contains("belongs to another journal key") == true, "\(impostor.lastError ?? "")")
    }

    /// A restart mid-drive: the trip ended `recovered` is reopened, drives on and ends — one
    /// row, open while it was open again, with the last end's figures; a batch sent again
    /// does not reopen it.
    @Test func aReopenedTripIsOneRowWithItsLastEnd() async throws {
        let dir = try TemporaryDirectory("pgreopen")
        defer { dir.remove() }
        let pg = try PostgresCluster(directory: dir.file("pg"))
        let state = dir.file("state")
        let journal = try JournalWriter.open(JournalConfiguration(directory: state + "/journal", stateDirectory: state), logger: logger)
        let id = journal.nextTripID()
        let points = (0..<20).map { i in TripPoint(time: GPSTime(seconds: 1_900_000_000 + Int64(i)), latitude: 47 + Double(i) * 1e-4, longitude: 8) }
        _ = try journal.append(.tripStarted(TripStarted(id: id, vehicleID: "golf", reason: "service", monotonicNanoseconds: 1, bootID: "b1")))
        _ = try journal.append(.points(id, Array(points[..<10])))
        let first = TripSummary(distance: 100, duration: 9, maxSpeed: 11, averageSpeed: 11, pointCount: 10)
        _ = try journal.append(.tripEnded(TripEnded(id: id, reason: "recovered", gpsTime: points[9].time, summary: first)))
        _ = try journal.append(.tripReopened(TripReopened(
            id: id, vehicleID: "golf", startReason: "service", startTime: points[0].time, previousEndReason: "recovered",
            from: points[9].time, gpsTime: points[10].time, summary: first, lastPoint: points[9], monotonicNanoseconds: 2, bootID: "b2")))
        _ = try journal.append(.points(id, Array(points[10...])))
        _ = try journal.append(.tripEnded(TripEnded(id: id, reason: "shutdown", gpsTime: points[19].time, summary: TripSummary(
            distance: 211, duration: 19, maxSpeed: 11, averageSpeed: 11, pointCount: 20))))
        try await journal.close()

        let key = try #require(Uplink.trustedKey(stateDirectory: state))
        let device = DeviceIdentity(id: DeviceIdentity.derivedID(publicKey: key), publicKey: key)
        let sink = PostgresSink(connector: PostgresConnector(url: pg.url), device: device, vehicles: [], logger: logger)
        #expect(sink.becomeReady())
        let all = try items(state + "/journal")
        let reopenedAt = try #require(all.firstIndex { if case .entry(let e) = $0, case .tripReopened = e.record { true } else { false } })
        try sink.deliver(Array(all[...reopenedAt]), signal: WorkerSignal())
        #expect(try pg.psql("SELECT count(*), end_seq IS NULL, end_reason IS NULL FROM trips GROUP BY 2, 3") == "1|t|t",
                "open again after the reopen")
        try sink.deliver(all, signal: WorkerSignal())
        try sink.deliver(all, signal: WorkerSignal())  // sent again: the later end stays
        #expect(try pg.psql("SELECT count(*), end_reason, distance_m, point_count FROM trips GROUP BY 2, 3, 4") == "1|shutdown|211|20")
        #expect(try pg.psql("SELECT count(*) FROM events WHERE kind = 'trip_reopened'") == "1")
        #expect(try pg.psql("SELECT count(*) FROM points") == "20")
    }

    @Test func anUnreachableDatabaseIsAClearErrorNotACrash() throws {
        let port = freePort()
        #expect(throws: UplinkError.self) { try PostgresConnection(url: "postgres://logbook@127.0.0.1:\(port)/fleet", connectTimeout: 2) }
        do { _ = try PostgresConnection(url: "postgres://logbook@127.0.0.1:\(port)/fleet", connectTimeout: 2) } catch {
            #expect("\(error)".contains("Connection refused") || "\(error)".contains("connection"), "\(error)")
        }
    }
}
