// SPDX-License-Identifier: MIT
public import LogbookCore
public import Logging

/// Reports BlueZ devices (a car's head unit, a phone) connecting and disconnecting as
/// `.bluetooth` ``VehicleSignal``s named by MAC address, each with its own vehicle.
///
/// Talks to `org.bluez` over sd-bus on its own OS thread:
/// - on start (and after BlueZ or the bus restarts) it reads `Connected` of every
///   `org.bluez.Device1` with ObjectManager `GetManagedObjects` and reports each configured
///   MAC (absent → off);
/// - afterwards it follows `PropertiesChanged(org.bluez.Device1, {Connected})` on
///   `/org/bluez/hciN/dev_AA_BB_…`, and re-reads on `InterfacesAdded`/`InterfacesRemoved`
///   and on `org.bluez` changing owner (a removed device or a stopped BlueZ reports off).
///
/// Only changes are reported after the initial state. When the bus connection breaks it
/// reconnects every ``reconnectDelay`` until stopped, keeping the last reported states.
public final class BluetoothMonitor: Sendable {
    /// Configured devices: upper-case MAC (`AA:BB:CC:DD:EE:FF`) → vehicle id (nil: default).
    public let devices: [String: String?]
    /// The bus BlueZ is on.
    public let endpoint: DBusEndpoint
    /// Wait between reconnection attempts.
    public let reconnectDelay: Duration

    private let logger: Logger
    private let onSignal: @Sendable (VehicleSignal) -> Void
    private let loop = EventLoopThread(name: "lb-bluetooth")

    /// - Parameters:
    ///   - devices: MAC address (any case, `:` or `_` separated) → vehicle id. Invalid
    ///     addresses are logged and ignored.
    ///   - endpoint: `.system` (production) or a private bus address (tests).
    ///   - reconnectDelay: default 2 s.
    ///   - logger: where connections and problems are logged.
    ///   - onSignal: called on the monitor's thread for each signal; must return at once.
    public init(
        devices: [String: String?], endpoint: DBusEndpoint = .system, reconnectDelay: Duration = .seconds(2),
        logger: Logger, onSignal: @escaping @Sendable (VehicleSignal) -> Void
    ) {
        var table: [String: String?] = [:]
        for (mac, vehicle) in devices {
            if let normal = Self.normalizedMAC(mac) {
                table[normal] = .some(vehicle)
            } else {
                logger.warning("bluetooth: ignoring invalid MAC address", metadata: ["mac": "\(mac)"])
            }
        }
        self.devices = table
        self.endpoint = endpoint
        self.reconnectDelay = max(reconnectDelay, .milliseconds(10))
        self.logger = logger
        self.onSignal = onSignal
    }

    deinit { loop.stop(timeout: .zero) }

    /// Connects and reports the initial state. Does nothing if already started.
    public func start() {
        let devices = devices
        let endpoint = endpoint
        let delay = pollMilliseconds(reconnectDelay)
        let logger = logger
        let emit = onSignal
        let started = loop.start { control in
            let session = BluetoothSession(devices: devices, logger: logger, emit: emit)
            session.run(endpoint: endpoint, control: control, reconnectDelayMs: delay)
        }
        if !started { logger.error("bluetooth monitor: could not start its thread") }
    }

    /// Disconnects; returns within about 0.5 s.
    public func stop() {
        if !loop.stop() { logger.warning("bluetooth monitor: thread did not stop within 0.5 s") }
    }

    /// `AA:BB:CC:DD:EE:FF` for a MAC written with `:`, `-` or `_` in any case; nil if invalid.
    public static func normalizedMAC(_ text: String) -> String? {
        let parts = text.uppercased().split(whereSeparator: { $0 == ":" || $0 == "_" || $0 == "-" })
        guard parts.count == 6, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isHexDigit) }) else {
            return nil
        }
        return parts.joined(separator: ":")
    }

    /// The MAC in a BlueZ device object path (`/org/bluez/hci0/dev_AA_BB_CC_DD_EE_FF`), if any.
    static func mac(fromDevicePath path: String) -> String? {
        guard path.hasPrefix("/org/bluez/"), let last = path.split(separator: "/").last,
            last.hasPrefix("dev_"), path.split(separator: "/").count == 4
        else { return nil }
        return normalizedMAC(String(last.dropFirst(4)))
    }
}
