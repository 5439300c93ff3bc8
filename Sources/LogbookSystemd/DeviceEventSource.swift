// SPDX-License-Identifier: MIT
internal import CLogbookSystemd
#if canImport(Glibc)
    internal import Glibc
#endif

/// One uevent as the sd-device monitor delivered it, copied out of libsystemd.
struct DeviceEvent: Sendable, Equatable {
    /// `add`, `remove`, `change`, `bind`… (nil if libsystemd gave none).
    var action: String?
    /// The kernel name (`AC`, `ttyUSB0`, `1-1.2`).
    var sysname: String?
    /// The device node (`/dev/ttyUSB0`), if any.
    var devname: String?
    /// `ID_VENDOR_ID` / `ID_MODEL_ID` (udev properties; lower-case hex).
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
    init(subsystem: String, handler: @escaping (DeviceEvent) -> Void) throws(DeviceSourceError) {
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
        let steps: [(String, () -> Int32)] = [
            ("filter_add_match_subsystem_devtype", { sd_device_monitor_filter_add_match_subsystem_devtype(m, subsystem, nil) }),
            ("attach_event", { sd_device_monitor_attach_event(m, e) }),
        ]
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

    private static func copy(_ device: OpaquePointer) -> DeviceEvent {
        var out = DeviceEvent()
        // 252 has no sd_device_action_to_string; the uevent's ACTION property says the same.
        out.action = string { sd_device_get_property_value(device, "ACTION", &$0) }
        out.sysname = string { sd_device_get_sysname(device, &$0) }
        out.devname = string { sd_device_get_devname(device, &$0) }
        out.vendorID = string { sd_device_get_property_value(device, "ID_VENDOR_ID", &$0) }
        out.productID = string { sd_device_get_property_value(device, "ID_MODEL_ID", &$0) }
        return out
    }

    private static func string(_ get: (inout UnsafePointer<CChar>?) -> Int32) -> String? {
        var p: UnsafePointer<CChar>?
        guard get(&p) >= 0, let p else { return nil }
        return String(cString: p)
    }
}

/// A libsystemd call that failed while setting up a device monitor.
struct DeviceSourceError: Error, CustomStringConvertible {
    let call: String
    let code: Int32
    var description: String { "\(call): \(errnoText(code))" }
}
