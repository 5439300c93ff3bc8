// SPDX-License-Identifier: MIT
public import LogbookCore
public import Logging
#if canImport(Glibc)
    internal import Glibc
#endif

/// Reports devices (a USB OBD adapter, a tty node) appearing and disappearing as `.device`
/// ``VehicleSignal``s, from libsystemd's sd-device monitor on its own OS thread.
///
/// On ``start()`` the present devices are enumerated (sd-device enumerator) and every rule's
/// state is reported (present → on, absent → off); afterwards only changes.
/// Needs udevd (udev-processed events, `ID_*` properties, `DEVLINKS`) and `AF_NETLINK`.
/// Tested only against fakes (the matching logic with synthetic events): the CI VM has no
/// USB hot-plug.
public final class DeviceMonitor: Sendable {
    /// The devices watched.
    public let rules: [DeviceRule]
    /// The udev subsystems listened to (default `usb` and `tty`).
    public let subsystems: [String]

    private let logger: Logger
    private let onSignal: @Sendable (VehicleSignal) -> Void
    private let loop = EventLoopThread(name: "lb-device")

    /// - Parameters:
    ///   - rules: the devices and the vehicles they stand for.
    ///   - subsystems: default `["usb", "tty"]`.
    ///   - logger: where appearances and problems are logged.
    ///   - onSignal: called on the monitor's thread for each signal; must return at once.
    public init(
        rules: [DeviceRule], subsystems: [String] = ["usb", "tty"], logger: Logger,
        onSignal: @escaping @Sendable (VehicleSignal) -> Void
    ) {
        self.rules = rules
        self.subsystems = subsystems
        self.logger = logger
        self.onSignal = onSignal
    }

    deinit { loop.stop(timeout: .zero) }

    /// Starts watching (reports the initial state first). Does nothing if already started.
    public func start() {
        let rules = rules
        let subsystems = subsystems
        let logger = logger
        let emit = onSignal
        let started = loop.start { control in
            Self.run(rules: rules, subsystems: subsystems, control: control, logger: logger, emit: emit)
        }
        if !started { logger.error("device monitor: could not start its thread") }
    }

    /// Stops watching; returns within about 0.5 s.
    public func stop() {
        if !loop.stop() { logger.warning("device monitor: thread did not stop within 0.5 s") }
    }

    private static func run(
        rules: [DeviceRule], subsystems: [String], control: LoopControl, logger: Logger,
        emit: @escaping @Sendable (VehicleSignal) -> Void
    ) {
        var matcher = DeviceMatcher(rules: rules)
        func signal(_ index: Int, _ isOn: Bool) {
            let rule = rules[index]
            logger.info("device \(isOn ? "present" : "gone")", metadata: ["device": "\(rule.name)"])
            emit(VehicleSignal(kind: .device, name: rule.name, vehicle: rule.vehicle, isOn: isOn))
        }
        let source: DeviceEventSource
        do {
            // The monitor first, then the enumeration: a device plugged in between is seen twice, not never.
            source = try DeviceEventSource(subsystems: subsystems) { event in
                for (index, isOn) in matcher.apply(event) { signal(index, isOn) }
            }
            for device in try DeviceEventSource.enumerate(subsystems: subsystems) { _ = matcher.apply(device) }
        } catch {
            logger.error("device monitor: cannot watch devices", metadata: ["error": "\(error)"])
            return
        }
        for index in rules.indices { signal(index, matcher.isOn(index)) }
        var fds = [
            pollfd(fd: control.wakeFD, events: Int16(POLLIN), revents: 0),
            pollfd(fd: source.fd, events: Int16(POLLIN), revents: 0),
        ]
        while !control.stopRequested {
            let n = pollRetrying(&fds, timeoutMs: -1)
            if n < 0 {
                logger.error("device monitor: poll failed", metadata: ["error": "\(errnoText(n))"])
                return
            }
            if fds[0].revents != 0 { _ = control.take() }
            if fds[1].revents != 0 { source.dispatch() }
        }
    }
}
