// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import LogbookTestSupport
import Testing

/// The real logbookd against python-dbusmock's BlueZ and logind on a private bus.
@Suite struct BusSourcesTests {
    static let golfUnit = "11:22:33:44:55:66"
    static let poloUnit = "AA:BB:CC:DD:EE:01"

    @Test(.timeLimit(.minutes(2)))
    func headUnitsStartTripsForTheirOwnVehicleAndShutdownClosesTheTripAndReleasesTheLock() async throws {
        if let why = FakeSystemBus.unavailable {
            print("skipped: \(why)")
            return
        }
        let bus = try FakeSystemBus(templates: ["bluez5", "logind"])
        defer { bus.stop() }
        try bus.bluez("AddAdapter", "ss", "hci0", "logbook-pi")
        try bus.bluez("AddDevice", "sss", "hci0", Self.golfUnit, "Golf head unit")
        try bus.bluez("AddDevice", "sss", "hci0", Self.poloUnit, "Polo head unit")
        let dir = try TemporaryDirectory("bus")
        defer { dir.remove() }
        let cfg = dir.file("logbookd.toml")
        try """
            state_dir = "\(dir.file("state"))"
            runtime_dir = "\(dir.file("run"))"
            [gpsd]
            address = "127.0.0.1:1"
            [shutdown]
            logind_bus = "\(bus.address)"
            [trip]
            power_off_grace_s = 1
            [[vehicle]]
            id = "golf"
            [[vehicle]]
            id = "polo"
            [[source]]
            type = "bluetooth"
            mac = "\(Self.golfUnit)"
            bus = "\(bus.address)"
            vehicle = "golf"
            [[source]]
            type = "bluetooth"
            mac = "\(Self.poloUnit)"
            bus = "\(bus.address)"
            vehicle = "polo"
            """.write(toFile: cfg, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(arguments: ["--config", cfg])
        func trip() -> [String: Any]? { readJSONFile(dir.file("run/live.json"))?["trip"] as? [String: Any] }
        func vehicle() -> String? { (trip()?["vehicle"] as? [String: Any])?["id"] as? String }
        #expect(await eventually { (try? bus.logindInhibitorCount()) == 1 }, "no delay lock taken: \(daemon.log)")

        try bus.bluez("ConnectDevice", "ss", "hci0", Self.golfUnit)
        #expect(await eventually { vehicle() == "golf" }, "log: \(daemon.log)")
        #expect(trip()?["start_reason"] as? String == "bluetooth:\(Self.golfUnit)")
        try bus.bluez("DisconnectDevice", "ss", "hci0", Self.golfUnit)
        #expect(await eventually { trip() == nil })

        // Another head unit: a trip for its own vehicle, not the last one added.
        try bus.bluez("ConnectDevice", "ss", "hci0", Self.poloUnit)
        #expect(await eventually { vehicle() == "polo" })

        // The system shuts down: the trip closes, then the delay lock is released.
        try bus.emitLogind("PrepareForShutdown", true)
        #expect(await eventually { trip() == nil })
        #expect(await eventually { (try? bus.logindInhibitorCount()) == 0 }, "the inhibitor lock was not released")
        _ = await daemon.stop()

        let trips = try JournalReader(directory: dir.file("state/journal")).trips()
        #expect(trips.map(\.vehicleID) == ["golf", "polo"])
        #expect(trips.first?.endReason == "bluetooth:\(Self.golfUnit)")
        #expect(trips.last?.endReason == "shutdown")
    }
}
