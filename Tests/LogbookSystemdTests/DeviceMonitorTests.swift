// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookTestSupport
@testable import LogbookSystemd
import Logging
import Testing

/// DeviceMonitor's matching against synthetic udev events (the CI VM has no USB hot-plug),
/// plus the real sd-device enumerator on devices every Linux has (`mem`: /dev/null).
@Suite struct DeviceMonitorTests {
    static let obd = DeviceRule(.usb(vendor: "10C4", product: "EA60"), name: "obd", vehicle: "golf")
    static let gps = DeviceRule(.node("/dev/serial/by-id/usb-u-blox_GNSS"), vehicle: "tesla")

    private func usb(_ action: String?, _ syspath: String, vendor: String? = "10c4", product: String? = "ea60",
                     devname: String? = nil, links: [String] = []) -> DeviceEvent {
        DeviceEvent(action: action, syspath: syspath, sysname: nil, devname: devname, devlinks: links,
                    vendorID: vendor, productID: product)
    }

    @Test func rulesParseFromConfigText() {
        #expect(DeviceRule(parsing: "10c4:EA60") == DeviceRule(.usb(vendor: "10c4", product: "ea60")))
        #expect(DeviceRule(parsing: "10c4:EA60")?.name == "10c4:ea60")
        #expect(DeviceRule(parsing: "/dev/ttyUSB0", vehicle: "golf")?.match == .node("/dev/ttyUSB0"))
        #expect(DeviceRule(parsing: "10c4-ea60") == nil)
        #expect(DeviceRule(parsing: "ttyUSB0") == nil)
        #expect(DeviceRule(parsing: "10c4:ea6") == nil)
    }

    @Test func kernelProductStringGivesUSBIDs() {
        let ids = DeviceEvent.usbIDs(fromProduct: "10c4/ea60/100")
        #expect(ids.0 == "10c4" && ids.1 == "ea60")
        let short = DeviceEvent.usbIDs(fromProduct: "67b/2303/300")
        #expect(short.0 == "067b" && short.1 == "2303")
        #expect(DeviceEvent.usbIDs(fromProduct: "garbage").0 == nil)
    }

    @Test func usbAdapterAndItsChildrenCountOnce() {
        var m = DeviceMatcher(rules: [Self.obd, Self.gps])
        // The usb_device, its interface and its tty all carry the ids: one "on".
        #expect(m.apply(usb("add", "/sys/devices/usb1/1-1")).map(\.0) == [0])
        #expect(m.apply(usb("add", "/sys/devices/usb1/1-1/1-1:1.0")).isEmpty)
        #expect(m.apply(usb("add", "/sys/devices/usb1/1-1/1-1:1.0/ttyUSB0/tty/ttyUSB0", devname: "/dev/ttyUSB0")).isEmpty)
        #expect(m.isOn(0) && !m.isOn(1))
        // A change event without the udev properties does not switch it off.
        #expect(m.apply(usb("change", "/sys/devices/usb1/1-1", vendor: nil, product: nil)).isEmpty)
        // Unplugged: removes arrive children first; "off" only when the last one goes.
        #expect(m.apply(usb("remove", "/sys/devices/usb1/1-1/1-1:1.0/ttyUSB0/tty/ttyUSB0", vendor: nil, product: nil)).isEmpty)
        #expect(m.apply(usb("remove", "/sys/devices/usb1/1-1/1-1:1.0")).isEmpty)
        let off = m.apply(usb("remove", "/sys/devices/usb1/1-1", vendor: nil, product: nil))
        #expect(off.count == 1 && off[0] == (0, false))
        #expect(!m.isOn(0))
    }

    @Test func nodeRulesMatchTheNodeOrAUdevSymlink() {
        var m = DeviceMatcher(rules: [Self.obd, Self.gps])
        let tty = usb("add", "/sys/devices/usb1/1-2/tty/ttyACM0", vendor: "1546", product: "01a7",
                      devname: "/dev/ttyACM0", links: ["/dev/serial/by-id/usb-u-blox_GNSS", "/dev/gps0"])
        let on = m.apply(tty)
        #expect(on.count == 1 && on[0] == (1, true))
        #expect(!m.isOn(0))  // other ids: not the OBD adapter
        let off = m.apply(DeviceEvent(action: "remove", syspath: tty.syspath))
        #expect(off.count == 1 && off[0] == (1, false))
        // A remove for a device never seen is ignored.
        #expect(m.apply(usb("remove", "/sys/devices/unknown")).isEmpty)
    }

    @Test func startReportsEachRulesInitialStateFromTheEnumerator() async throws {
        let rec = Recorder<VehicleSignal>()
        let (logger, _) = CapturingLogHandler.logger()
        let m = DeviceMonitor(
            rules: [DeviceRule(.node("/dev/null"), name: "null", vehicle: "golf"), Self.obd],
            subsystems: ["mem", "usb"], logger: logger, onSignal: rec.callback)
        m.start()
        let all = await rec.wait(count: 2)
        let started = ContinuousClock.now
        m.stop()
        // Its thread waits without a timeout: a stop it missed would never return. The bound
        // only catches that, beside a pass of parallel tests on two cores.
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(all == [.on(.device, "null", vehicle: "golf"), .off(.device, "obd", vehicle: "golf")])
    }
}
