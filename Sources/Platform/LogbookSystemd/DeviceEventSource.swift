// SPDX-License-Identifier: MIT
internal import CLogbookSystemd
internal import LogbookPOSIX
#if canImport(Glibc)
    internal import Glibc
#endif

/// One uevent as the sd-device monitor delivered it, copied out of libsystemd.
struct DeviceEvent: Sendable, Equatable {
    /// `add`, `remove`, `change`, `bind`… (nil for a device found by enumeration).
    var action: String?
    /// The device's sysfs path: the key pairing an `add` with its `remove`.
    var syspath: String?
    /// The kernel name (`AC`, `ttyUSB0`, `1-1.2`).
    var sysname: String?
    /// The device node (`/dev/ttyUSB0`), if any.
    var devname: String?
    /// Symlinks udev made to the node (`/dev/serial/by-id/…`).
    var devlinks: [String] = []
    /// USB vendor and product ids, lower-case hex (`10c4`, `ea60`), if known.
    var vendorID: String?
    var productID: String?
}

/// An sd-device (udev) monitor for one subsystem on its own sd-event loop.
///
/// Thread-confined: created, polled and freed on one monitor's loop thread. The owner polls
/// ``fd`` next to its own descriptors and calls ``dispatch()`` when it is readable, so the
/// loop never blocks inside libsystemd. Receives udev-processed events (udevd must run).
final class DeviceEventSource {
    private var event: OpaquePointer?
    private var monitor: OpaquePointer?
    private let handler: (DeviceEvent) -> Void

    /// The sd-event descriptor to poll for `POLLIN`.
    let fd: Int32

    /// Opens a monitor for `subsystem`; throws the negative errno libsystemd returned.
    convenience init(subsystem: String, handler: @escaping (DeviceEvent) -> Void) throws(DeviceSourceError) {
        try self.init(subsystems: [subsystem], handler: handler)
    }

    /// Opens a monitor for several subsystems.
    init(subsystems: [String], handler: @escaping (DeviceEvent) -> Void) throws(DeviceSourceError) {
        self.handler = handler
        var e: OpaquePointer?
        var r = sd_event_new(&e)
        guard r >= 0, let e else { throw DeviceSourceError(call: "sd_event_new", code: r) }
        event = e
        var m: OpaquePointer?
        r = sd_device_monitor_new(&m)
        guard r >= 0, let m else {
            sd_event_unref(e)
            throw DeviceSourceError(call: "sd_device_monitor_new", code: r)
        }
        monitor = m
        fd = sd_event_get_fd(e)
        var steps: [(String, () -> Int32)] = subsystems.map { subsystem in
            (
                "filter_add_match_subsystem_devtype",
                { sd_device_monitor_filter_add_match_subsystem_devtype(m, subsystem, nil) }
            )
        }
        steps.append(("attach_event", { sd_device_monitor_attach_event(m, e) }))
        for (call, step) in steps {
            let rc = step()
            if rc < 0 {
                release()
                throw DeviceSourceError(call: "sd_device_monitor_" + call, code: rc)
            }
        }
        // userdata: this object, unretained; the monitor is freed in deinit before we are.
        let me = Unmanaged.passUnretained(self).toOpaque()
        r = sd_device_monitor_start(m, { _, device, userdata in
            guard let userdata, let device else { return 0 }
            let source = Unmanaged<DeviceEventSource>.fromOpaque(userdata).takeUnretainedValue()
            source.handler(DeviceEventSource.copy(device))
            return 0
        }, me)
        if r < 0 {
            release()
            throw DeviceSourceError(call: "sd_device_monitor_start", code: r)
        }
    }

    deinit { release() }

    /// Runs the callbacks for whatever arrived; never blocks.
    func dispatch() {
        guard let event else { return }
        while sd_event_run(event, 0) > 0 {}
    }

    private func release() {
        if let monitor { sd_device_monitor_unref(monitor) }
        if let event { sd_event_unref(event) }
        monitor = nil
        event = nil
    }

    /// The devices of `subsystems` present now (sd-device enumerator), as action-less events.
    static func enumerate(subsystems: [String]) throws(DeviceSourceError) -> [DeviceEvent] {
        var en: OpaquePointer?
        let r = sd_device_enumerator_new(&en)
        guard r >= 0, let en else { throw DeviceSourceError(call: "sd_device_enumerator_new", code: r) }
        defer { sd_device_enumerator_unref(en) }
        // Also devices udevd has not processed (or no udevd at all): the kernel's name and
        // PRODUCT still match; udev's later `add` adds ID_*/DEVLINKS matches.
        let allow = sd_device_enumerator_allow_uninitialized(en)
        if allow < 0 { throw DeviceSourceError(call: "sd_device_enumerator_allow_uninitialized", code: allow) }
        for subsystem in subsystems {
            let rc = sd_device_enumerator_add_match_subsystem(en, subsystem, 1)
            if rc < 0 { throw DeviceSourceError(call: "sd_device_enumerator_add_match_subsystem", code: rc) }
        }
        var out: [DeviceEvent] = []
        var device = sd_device_enumerator_get_device_first(en)
        while let d = device {
            out.append(copy(d, action: false))
            device = sd_device_enumerator_get_device_next(en)
        }
        return out
    }

    static func copy(_ device: OpaquePointer, action: Bool = true) -> DeviceEvent {
        var out = DeviceEvent()
        // 252 has no sd_device_action_to_string; the uevent's ACTION property says the same.
        if action { out.action = string { sd_device_get_property_value(device, "ACTION", &$0) } }
        out.syspath = string { sd_device_get_syspath(device, &$0) }
        out.sysname = string { sd_device_get_sysname(device, &$0) }
        out.devname = string { sd_device_get_devname(device, &$0) }
        out.devlinks = (string { sd_device_get_property_value(device, "DEVLINKS", &$0) } ?? "")
            .split(separator: " ").map(String.init)
        // udev's ID_* first; the kernel's PRODUCT=vid/pid/bcd (usb_device) otherwise.
        out.vendorID = string { sd_device_get_property_value(device, "ID_VENDOR_ID", &$0) }
        out.productID = string { sd_device_get_property_value(device, "ID_MODEL_ID", &$0) }
        if out.vendorID == nil, let product = string({ sd_device_get_property_value(device, "PRODUCT", &$0) }) {
            (out.vendorID, out.productID) = DeviceEvent.usbIDs(fromProduct: product)
        }
        return out
    }

    private static func string(_ get: (inout UnsafePointer<CChar>?) -> Int32) -> String? {
        var p: UnsafePointer<CChar>?
        guard get(&p) >= 0, let p else { return nil }
        return String(cString: p)
    }
}

extension DeviceEvent {
    /// `10c4/ea60/100` (hex without leading zeros) → (`10c4`, `ea60`).
    static func usbIDs(fromProduct product: String) -> (String?, String?) {
        let parts = product.split(separator: "/")
        guard parts.count >= 2, let v = UInt16(parts[0], radix: 16), let p = UInt16(parts[1], radix: 16) else {
            return (nil, nil)
        }
        return (Hex.encode(v, width: 4), Hex.encode(p, width: 4))
    }
}

/// A libsystemd call that failed while setting up a device monitor.
struct DeviceSourceError: Error, CustomStringConvertible {
    let call: String
    let code: Int32
    var description: String { "\(call): \(SystemError.text(code))" }
}
