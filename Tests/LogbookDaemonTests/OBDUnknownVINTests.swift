// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import LogbookRecords
import LogbookTestSupport
import Testing

/// A car whose VIN no vehicle has: the real logbookd against the real ELM327-emulator adds a
/// vehicle for it (origin `obd`, make and model year from the VIN) and ties the trip to it,
/// not to the source's own vehicle.
@Suite(.serialized) struct OBDUnknownVINTests {
    @Test(.timeLimit(.minutes(3)))
    func anUnknownVINAddsAVehicleAndTheTripIsItsOwn() async throws {
        let dir = try TemporaryDirectory("obdv")
        defer { dir.remove() }
        let elm = try ELMEmulator(scenario: "car", transport: .tcp)
        defer { elm.kill() }
        #expect(OBDDaemonTests.prepare(elm))
        let gpsd = try GPSDReplay(log: TestPaths.gpsLog("20100403_Z205_Switzerland.txt"), realtime: 20)
        defer { gpsd.stop() }
        let path = dir.file("logbookd.toml")
        try """
            state_dir = "\(dir.file("state"))"
            runtime_dir = "\(dir.file("run"))"
            [gpsd]
            address = "\(gpsd.address)"
            [journal]
            commit_interval_s = 1
            [[vehicle]]
            id = "van"
            [[source]]
            type = "obd"
            name = "elm"
            address = "\(elm.address)"
            vehicle = "van"
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(arguments: ["--config", path])
        let suite = OBDDaemonTests()
        // WP0ZZZ99ZTS390000: Porsche (WMI WP0), 1996 (10th character T).
        #expect(await eventually(.seconds(30)) { (suite.trip(dir)?["vehicle"] as? [String: Any])?["id"] as? String == "porsche-390000" },
                "log: \(daemon.log.suffix(3000))")
        let block = try #require(suite.obd(dir))
        #expect(block["vehicle"] as? String == "porsche-390000" && block["vin_known"] as? Bool == false)
        #expect(block["manufacturer"] as? String == "Porsche" && block["model_year"] as? Int == 1996)
        #expect(daemon.log.contains("OBD: a car with a VIN no vehicle had; added it as vehicle porsche-390000"))
        #expect(await daemon.stop()?.0 == 0)

        let journal = try JournalReader(directory: dir.file("state/journal"))
        let trips = try journal.trips()
        #expect(!trips.isEmpty && trips.allSatisfy { $0.vehicleID == "porsche-390000" }, "\(trips)")
        let entries = try journal.entries().compactMap { if case .entry(let e) = $0.record { e } else { nil } }
        let added = try #require(entries.first { $0.type == VehicleRecord.type && $0.subject == "porsche-390000" })
        #expect(added.origin == "obd" && added.action == .add)
        let vehicle = try VehicleRecord(json: added.fields)
        #expect(vehicle.make == "Porsche" && vehicle.year == 1996 && vehicle.vin == "WP0ZZZ99ZTS390000" && vehicle.name == "Porsche 390000")
        // Added once: the next readings find it by its VIN.
        #expect(entries.filter { $0.type == VehicleRecord.type && $0.origin == "obd" }.count == 1)
        print("obd: unknown VIN: WP0ZZZ99ZTS390000 added as vehicle porsche-390000 (Porsche, 1996, origin obd), \(trips.count) trip(s) tied to it")
    }
}
