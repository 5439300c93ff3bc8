// SPDX-License-Identifier: MIT
import LogbookTestSupport
import Foundation
import LogbookCore
@testable import LogbookSystemd
import Logging
import Testing

/// BluetoothMonitor against python-dbusmock's `bluez5` template on a private dbus-daemon.
@Suite struct BluetoothMonitorTests {
    static let headUnit = "AA:BB:CC:DD:EE:01"
    static let phone = "AA:BB:CC:DD:EE:02"
    static let stranger = "AA:BB:CC:DD:EE:03"

    private func fakeBlueZ() throws -> FakeSystemBus {
        let bus = try FakeSystemBus(templates: ["bluez5"])
        try bus.bluez("AddAdapter", "ss", "hci0", "logbook-pi")
        try bus.bluez("AddDevice", "sss", "hci0", Self.headUnit, "Golf head unit")
        try bus.bluez("AddDevice", "sss", "hci0", Self.phone, "Tesla key phone")
        try bus.bluez("AddDevice", "sss", "hci0", Self.stranger, "Someone else")
        return bus
    }

    private func monitor(
        _ bus: FakeSystemBus
    ) -> (BluetoothMonitor, Recorder<VehicleSignal>, CapturingLogHandler.Store) {
        let recorder = Recorder<VehicleSignal>()
        let (logger, logs) = CapturingLogHandler.logger()
        // Lower case and `_` on purpose: the table is normalised.
        let m = BluetoothMonitor(
            devices: ["aa:bb:cc:dd:ee:01": "golf", "AA_BB_CC_DD_EE_02": "tesla"],
            endpoint: .address(bus.address), logger: logger, onSignal: recorder.callback)
        return (m, recorder, logs)
    }

    @Test(.enabled(if: FakeSystemBus.unavailable == nil, "\(FakeSystemBus.unavailable ?? "")"))
    func connectAndDisconnectReportTheRightMACAndVehicle() async throws {
        let bus = try fakeBlueZ()
        defer { bus.stop() }
        let (m, rec, _) = monitor(bus)
        m.start()
        defer { m.stop() }
        // Initial state: both configured devices known and disconnected (sorted by MAC).
        #expect(await rec.wait(count: 2) == [.off(.bluetooth, Self.headUnit, vehicle: "golf"),
                                             .off(.bluetooth, Self.phone, vehicle: "tesla")])
        try bus.bluez("ConnectDevice", "ss", "hci0", Self.headUnit)
        #expect(await rec.wait(count: 3).last == .on(.bluetooth, Self.headUnit, vehicle: "golf"))
        try bus.bluez("ConnectDevice", "ss", "hci0", Self.phone)
        #expect(await rec.wait(count: 4).last == .on(.bluetooth, Self.phone, vehicle: "tesla"))
        try bus.bluez("DisconnectDevice", "ss", "hci0", Self.headUnit)
        #expect(await rec.wait(count: 5).last == .off(.bluetooth, Self.headUnit, vehicle: "golf"))
        // An unconfigured device says nothing.
        try bus.bluez("ConnectDevice", "ss", "hci0", Self.stranger)
        try bus.bluez("DisconnectDevice", "ss", "hci0", Self.phone)
        let all = await rec.wait(count: 6)
        #expect(all.count == 6)
        #expect(all.last == .off(.bluetooth, Self.phone, vehicle: "tesla"))
        #expect(!all.contains { $0.name == Self.stranger })
    }

    @Test(.enabled(if: FakeSystemBus.unavailable == nil, "\(FakeSystemBus.unavailable ?? "")"))
    func alreadyConnectedAtStartReportsOn() async throws {
        let bus = try fakeBlueZ()
        defer { bus.stop() }
        try bus.bluez("ConnectDevice", "ss", "hci0", Self.phone)
        try bus.bluez("ConnectDevice", "ss", "hci0", Self.stranger)
        let (m, rec, _) = monitor(bus)
        m.start()
        defer { m.stop() }
        #expect(await rec.wait(count: 2) == [.off(.bluetooth, Self.headUnit, vehicle: "golf"),
                                             .on(.bluetooth, Self.phone, vehicle: "tesla")])
    }

    @Test(.enabled(if: FakeSystemBus.unavailable == nil, "\(FakeSystemBus.unavailable ?? "")"))
    func removedDeviceWhileConnectedReportsOff() async throws {
        let bus = try fakeBlueZ()
        defer { bus.stop() }
        try bus.bluez("ConnectDevice", "ss", "hci0", Self.headUnit)
        let (m, rec, _) = monitor(bus)
        m.start()
        defer { m.stop() }
        #expect(await rec.wait(count: 2).first == .on(.bluetooth, Self.headUnit, vehicle: "golf"))
        // Adapter1.RemoveDevice emits InterfacesRemoved; the monitor re-reads the devices.
        try bus.busctl(["call", "org.bluez", "/org/bluez/hci0", "org.bluez.Adapter1", "RemoveDevice", "o",
                        "/org/bluez/hci0/dev_AA_BB_CC_DD_EE_01"])
        #expect(await rec.wait(count: 3).last == .off(.bluetooth, Self.headUnit, vehicle: "golf"))
    }

    @Test(.enabled(if: FakeSystemBus.unavailable == nil, "\(FakeSystemBus.unavailable ?? "")"))
    func blueZStoppingReportsConnectedDevicesOff() async throws {
        let bus = try fakeBlueZ()
        defer { bus.stop() }
        try bus.bluez("ConnectDevice", "ss", "hci0", Self.phone)
        let (m, rec, logs) = monitor(bus)
        m.start()
        defer { m.stop() }
        #expect(await rec.wait(count: 2).last == .on(.bluetooth, Self.phone, vehicle: "tesla"))
        bus.killMock("bluez5")  // org.bluez loses its owner (NameOwnerChanged)
        #expect(await rec.wait(count: 3).last == .off(.bluetooth, Self.phone, vehicle: "tesla"))
        #expect(logs.contains("BlueZ is not running"))
        #expect(rec.all.count == 3)  // the head unit was already off: nothing new for it
    }

    @Test(.enabled(if: FakeSystemBus.unavailable == nil, "\(FakeSystemBus.unavailable ?? "")"))
    func reconnectsAfterTheBusRestartsAndReadsTheStateAgain() async throws {
        let bus = try fakeBlueZ()
        defer { bus.stop() }
        let recorder = Recorder<VehicleSignal>()
        let (logger, logs) = CapturingLogHandler.logger()
        let m = BluetoothMonitor(devices: [Self.headUnit: "golf"], endpoint: .address(bus.address),
                                 reconnectDelay: .milliseconds(100), logger: logger, onSignal: recorder.callback)
        m.start()
        defer { m.stop() }
        #expect(await recorder.wait(count: 1) == [.off(.bluetooth, Self.headUnit, vehicle: "golf")])
        try bus.restart()  // the bus daemon and BlueZ die and come back, empty
        #expect(await eventually { logs.contains("bus connection lost") })
        try bus.bluez("AddAdapter", "ss", "hci0", "logbook-pi")
        try bus.bluez("AddDevice", "sss", "hci0", Self.headUnit, "Golf head unit")
        try bus.bluez("ConnectDevice", "ss", "hci0", Self.headUnit)
        // Either the re-read after reconnecting or the PropertiesChanged reports it, once.
        #expect(await recorder.wait(count: 2).last == .on(.bluetooth, Self.headUnit, vehicle: "golf"))
        try await Task.sleep(for: .milliseconds(200))
        #expect(recorder.all.count == 2)
    }

    @Test func unreachableBusIsLoggedAndStopIsPrompt() async throws {
        let (logger, logs) = CapturingLogHandler.logger()
        let rec = Recorder<VehicleSignal>()
        let m = BluetoothMonitor(devices: [Self.headUnit: "golf"], endpoint: .address("unix:path=/nonexistent/bus"),
                                 reconnectDelay: .milliseconds(50), logger: logger, onSignal: rec.callback)
        m.start()
        #expect(await eventually { logs.contains("retrying") })
        try await Task.sleep(for: .milliseconds(200))  // several retries…
        #expect(logs.all.filter { $0.contains("retrying") }.count == 1)  // …logged once
        let started = ContinuousClock.now
        m.stop()
        // Its thread waits without a timeout: a stop it missed would never return. The bound
        // only catches that, beside a pass of parallel tests on two cores.
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(rec.all.isEmpty)
    }

    @Test func macAddressesAreNormalised() {
        #expect(BluetoothMonitor.normalizedMAC("aa:bb:cc:dd:ee:ff") == "AA:BB:CC:DD:EE:FF")
        #expect(BluetoothMonitor.normalizedMAC("AA_BB_CC_DD_EE_FF") == "AA:BB:CC:DD:EE:FF")
        #expect(BluetoothMonitor.normalizedMAC("aa-bb-cc-dd-ee-0f") == "AA:BB:CC:DD:EE:0F")
        #expect(BluetoothMonitor.normalizedMAC("AA:BB:CC:DD:EE") == nil)
        #expect(BluetoothMonitor.normalizedMAC("AA:BB:CC:DD:EE:GG") == nil)
        #expect(BluetoothMonitor.normalizedMAC("AAA:BB:CC:DD:EE:F") == nil)
        #expect(BluetoothMonitor.mac(fromDevicePath: "/org/bluez/hci0/dev_AA_BB_CC_DD_EE_01") == "AA:BB:CC:DD:EE:01")
        #expect(BluetoothMonitor.mac(fromDevicePath: "/org/bluez/hci0/dev_AA_BB_CC_DD_EE_01/sep1") == nil)
        #expect(BluetoothMonitor.mac(fromDevicePath: "/org/bluez/hci0") == nil)
    }

    @Test func invalidConfiguredMACsAreDropped() {
        let (logger, logs) = CapturingLogHandler.logger()
        let m = BluetoothMonitor(devices: ["nope": "golf", "aa:bb:cc:dd:ee:ff": nil], logger: logger) { _ in }
        #expect(m.devices.count == 1)
        #expect(m.devices["AA:BB:CC:DD:EE:FF"] == .some(nil))
        #expect(logs.contains("invalid MAC"))
    }
}
