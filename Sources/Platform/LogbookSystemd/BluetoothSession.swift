// SPDX-License-Identifier: MIT
internal import CLogbookSystemd
internal import LogbookCore
internal import Logging
#if canImport(Glibc)
    internal import Glibc
#endif

/// The BluetoothMonitor's state on its loop thread: the bus connection, the last reported
/// state per MAC, and the sd-bus match callbacks (which receive this object as userdata).
final class BluetoothSession {
    private let devices: [String: String?]
    private let logger: Logger
    private let emit: @Sendable (VehicleSignal) -> Void
    /// Last reported state per configured MAC.
    private var reported: [String: Bool] = [:]
    /// Set by the object-manager and owner-change callbacks; handled between dispatches.
    private var needsResync = true

    init(devices: [String: String?], logger: Logger, emit: @escaping @Sendable (VehicleSignal) -> Void) {
        self.devices = devices
        self.logger = logger
        self.emit = emit
    }

    /// Connects, follows BlueZ until stop, reconnects after a break.
    func run(endpoint: DBusEndpoint, control: LoopControl, reconnectDelayMs: Int32) {
        var lastError = ""
        while !control.stopRequested {
            do {
                let connection = try SDBusConnection(endpoint)
                try subscribe(connection)
                logger.info("bluetooth monitor connected", metadata: ["devices": "\(devices.keys.sorted())"])
                lastError = ""
                needsResync = true
                let exit = connection.run(control: control) { _ in
                    if needsResync { resync(connection) }
                }
                if case .disconnected(let why) = exit {
                    logger.warning("bluetooth monitor: bus connection lost", metadata: ["error": "\(why)"])
                }
            } catch {
                // Log a lasting failure once, not every retry.
                if "\(error)" != lastError { logger.warning("bluetooth monitor: \(error); retrying") }
                lastError = "\(error)"
            }
            guard !control.stopRequested else { break }
            var fds = [pollfd(fd: control.wakeFD, events: Int16(POLLIN), revents: 0)]
            _ = pollRetrying(&fds, timeoutMs: reconnectDelayMs)
        }
    }

    private func subscribe(_ connection: SDBusConnection) throws(SDBusError) {
        try connection.addMatch(
            "type='signal',sender='org.bluez',interface='org.freedesktop.DBus.Properties',"
                + "member='PropertiesChanged',path_namespace='/org/bluez',arg0='org.bluez.Device1'",
            target: self
        ) { m, userdata, _ in
            guard let m, let userdata else { return 0 }
            Unmanaged<BluetoothSession>.fromOpaque(userdata).takeUnretainedValue().propertiesChanged(m)
            return 0
        }
        let resyncHandler: sd_bus_message_handler_t = { _, userdata, _ in
            guard let userdata else { return 0 }
            Unmanaged<BluetoothSession>.fromOpaque(userdata).takeUnretainedValue().needsResync = true
            return 0
        }
        try connection.addMatch(
            "type='signal',sender='org.bluez',interface='org.freedesktop.DBus.ObjectManager'",
            target: self, resyncHandler)
        try connection.addMatch(
            "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
                + "member='NameOwnerChanged',arg0='org.bluez'",
            target: self, resyncHandler)
    }

    private func propertiesChanged(_ m: OpaquePointer) {
        guard let path = sd_bus_message_get_path(m).map({ String(cString: $0) }),
            let mac = BluetoothMonitor.mac(fromDevicePath: path), devices[mac] != nil
        else { return }
        guard let (interface, changed) = SDBusMessageReader.propertiesChanged(m) else {
            logger.warning("bluetooth: malformed PropertiesChanged", metadata: ["path": "\(path)"])
            return
        }
        guard interface == "org.bluez.Device1", case .bool(let connected)? = changed["Connected"] else { return }
        report(mac, connected)
    }

    /// Reads every device's `Connected` and reports the configured ones that changed.
    private func resync(_ connection: SDBusConnection) {
        needsResync = false
        var now: [String: Bool] = [:]
        do {
            let objects = try connection.call(
                destination: "org.bluez", path: "/", interface: "org.freedesktop.DBus.ObjectManager",
                member: "GetManagedObjects"
            ) { SDBusMessageReader.managedObjects($0, interface: "org.bluez.Device1") }
            guard let objects else {
                logger.warning("bluetooth: malformed GetManagedObjects reply")
                return
            }
            for (path, props) in objects {
                var mac: String?
                if case .string(let address)? = props["Address"] { mac = BluetoothMonitor.normalizedMAC(address) }
                guard let mac = mac ?? BluetoothMonitor.mac(fromDevicePath: path) else { continue }
                if case .bool(true)? = props["Connected"] { now[mac] = true }
            }
        } catch {
            // BlueZ not running: nothing is connected. Anything else: keep the last states.
            let absent = ["org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner"]
            guard let name = error.name, absent.contains(name) else {
                logger.warning("bluetooth: cannot read devices: \(error)")
                return
            }
            logger.notice("bluetooth: BlueZ is not running; devices count as disconnected")
        }
        for mac in devices.keys.sorted() { report(mac, now[mac] ?? false) }
    }

    private func report(_ mac: String, _ connected: Bool) {
        guard let vehicle = devices[mac], reported[mac] != connected else { return }
        reported[mac] = connected
        logger.info("bluetooth device \(connected ? "connected" : "disconnected")", metadata: ["mac": "\(mac)"])
        emit(VehicleSignal(kind: .bluetooth, name: mac, vehicle: vehicle, isOn: connected))
    }
}
