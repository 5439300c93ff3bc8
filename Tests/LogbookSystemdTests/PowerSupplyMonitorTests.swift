// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
@testable import LogbookSystemd
import LogbookTestSupport
import Logging
import Testing

/// PowerSupplyMonitor against a fake sysfs tree in a temp directory (polling only).
@Suite struct PowerSupplyMonitorTests {
    /// A fake `ROOT/class/power_supply/NAME/online`.
    struct FakeSysfs {
        let dir: TemporaryDirectory
        init() throws { dir = try TemporaryDirectory("sdbus-sysfs") }
        func set(_ name: String, _ content: String) throws {
            let supply = dir.path + "/class/power_supply/" + name
            try FileManager.default.createDirectory(atPath: supply, withIntermediateDirectories: true)
            // Atomic (rename): the monitor never sees a half-written file.
            try content.write(toFile: supply + "/online", atomically: true, encoding: .utf8)
        }
        func remove(_ name: String) throws {
            try FileManager.default.removeItem(atPath: dir.path + "/class/power_supply/" + name + "/online")
        }
    }

    private func monitor(_ sysfs: FakeSysfs, _ supplies: [String], vehicle: String? = "golf",
                         interval: Duration = .milliseconds(50)) -> (PowerSupplyMonitor, Recorder<VehicleSignal>, CapturingLogHandler.Store) {
        let recorder = Recorder<VehicleSignal>()
        let (logger, logs) = CapturingLogHandler.logger()
        let m = PowerSupplyMonitor(supplies: supplies, vehicle: vehicle, sysfsRoot: sysfs.dir.path,
                                   pollInterval: interval, logger: logger, onSignal: recorder.callback)
        return (m, recorder, logs)
    }

    @Test func switching0to1to0ReportsOffOnOffInOrder() async throws {
        let sysfs = try FakeSysfs()
        defer { sysfs.dir.remove() }
        try sysfs.set("AC", "0\n")
        let (m, rec, _) = monitor(sysfs, ["AC"])
        m.start()
        defer { m.stop() }
        #expect(await rec.wait(count: 1) == [.off(.power, "AC", vehicle: "golf")])
        try sysfs.set("AC", "1\n")
        #expect(await rec.wait(count: 2).last == .on(.power, "AC", vehicle: "golf"))
        try sysfs.set("AC", "0\n")
        let all = await rec.wait(count: 3)
        #expect(all == [.off(.power, "AC", vehicle: "golf"), .on(.power, "AC", vehicle: "golf"),
                        .off(.power, "AC", vehicle: "golf")])
        // No repeats while nothing changes.
        try await Task.sleep(for: .milliseconds(200))
        #expect(rec.all.count == 3)
    }

    @Test func alreadyOnlineAtStartReportsOn() async throws {
        let sysfs = try FakeSysfs()
        defer { sysfs.dir.remove() }
        try sysfs.set("ignition", "1")
        try sysfs.set("BAT", "0")
        let (m, rec, _) = monitor(sysfs, ["ignition", "BAT"], vehicle: nil)
        m.start()
        defer { m.stop() }
        let all = await rec.wait(count: 2)
        #expect(Set(all) == [.on(.power, "ignition"), .off(.power, "BAT")])
    }

    @Test func missingFileIsLoggedOnceAndReportsNothingUntilItAppears() async throws {
        let sysfs = try FakeSysfs()
        defer { sysfs.dir.remove() }
        let (m, rec, logs) = monitor(sysfs, ["AC"])
        m.start()
        defer { m.stop() }
        #expect(await eventually { logs.contains("power supply unreadable") })
        try await Task.sleep(for: .milliseconds(250))  // ~5 more polls
        #expect(rec.all.isEmpty)
        #expect(logs.all.filter { $0.contains("unreadable") }.count == 1)
        try sysfs.set("AC", "1")
        #expect(await rec.wait(count: 1) == [.on(.power, "AC", vehicle: "golf")])
        #expect(logs.contains("readable again"))
        // Disappearing again keeps the last state: no signal, one more log line.
        try sysfs.remove("AC")
        #expect(await eventually { logs.all.filter { $0.contains("unreadable") }.count == 2 })
        #expect(rec.all.count == 1)
    }

    @Test func garbageIsIgnoredAndLogged() async throws {
        let sysfs = try FakeSysfs()
        defer { sysfs.dir.remove() }
        try sysfs.set("AC", "1")
        let (m, rec, logs) = monitor(sysfs, ["AC"])
        m.start()
        defer { m.stop() }
        #expect(await rec.wait(count: 1) == [.on(.power, "AC", vehicle: "golf")])
        try sysfs.set("AC", "banana\n")
        #expect(await eventually { logs.contains("unexpected content") && logs.contains("banana") })
        try await Task.sleep(for: .milliseconds(150))
        #expect(rec.all.count == 1)
        try sysfs.set("AC", "0")
        #expect(await rec.wait(count: 2).last == .off(.power, "AC", vehicle: "golf"))
    }

    @Test func stopReturnsQuicklyEvenWithALongPollInterval() async throws {
        let sysfs = try FakeSysfs()
        defer { sysfs.dir.remove() }
        try sysfs.set("AC", "1")
        let (m, rec, _) = monitor(sysfs, ["AC"], interval: .seconds(30))
        m.start()
        await rec.wait(count: 1)
        let started = ContinuousClock.now
        m.stop()
        // Far inside the 30 s poll interval a blocked stop would wait for; loose for a busy CI.
        #expect(ContinuousClock.now - started < .seconds(10))
        // Stopped means stopped: a change is no longer seen; start again reports it.
        try sysfs.set("AC", "0")
        try await Task.sleep(for: .milliseconds(100))
        #expect(rec.all.count == 1)
        m.start()
        #expect(await rec.wait(count: 2).last == .off(.power, "AC", vehicle: "golf"))
        m.stop()
    }

    @Test func parsesTheKernelOnlineValues() {
        #expect(PowerSupplyReading.parse("1\n") == .online(true))
        #expect(PowerSupplyReading.parse(" 2 ") == .online(true))  // online, programmable
        #expect(PowerSupplyReading.parse("0\n") == .online(false))
        #expect(PowerSupplyReading.parse("") == .invalid(""))
        #expect(PowerSupplyReading.parse("yes") == .invalid("yes"))
        #expect(PowerSupplyReading.parse("10") == .invalid("10"))
    }

    @Test func supplyNamesCannotLeaveTheClassDirectory() throws {
        let (logger, _) = CapturingLogHandler.logger()
        let watch = PowerSupplyWatch(supplies: [], vehicle: nil, sysfsRoot: "/sys", logger: logger) { _ in }
        #expect(watch.attributePath("AC") == "/sys/class/power_supply/AC/online")
        #expect(watch.attributePath("../../etc") == nil)
        #expect(watch.attributePath("..") == nil)
        #expect(watch.attributePath("") == nil)
    }

    /// The uevent path: libsystemd's sd-device monitor for `power_supply` opens (a netlink
    /// socket) and can be dispatched without blocking. The VM has no power_supply device, so
    /// receiving a real uevent is not tested here (umockdev could).
    @Test func deviceMonitorForPowerSupplyOpens() throws {
        let source = try DeviceEventSource(subsystem: "power_supply") { _ in }
        #expect(source.fd >= 0)
        let started = ContinuousClock.now
        source.dispatch()
        #expect(ContinuousClock.now - started < .seconds(1))  // a blocking receive would never return
    }
}
