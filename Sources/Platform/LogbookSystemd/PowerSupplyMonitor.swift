// SPDX-License-Identifier: MIT
public import LogbookCore
public import Logging
#if canImport(Glibc)
    internal import Glibc
#endif

/// Watches `/sys/class/power_supply/NAME/online` of ignition-switched supplies and reports
/// each change as a `.power` ``VehicleSignal``.
///
/// Two ways to notice a change, both on the monitor's own OS thread:
/// - **uevents** (sd-device monitor, subsystem `power_supply`): the attribute is re-read at
///   once. Only when ``sysfsRoot`` is `/sys`, because uevents describe the real sysfs, and
///   only while udevd runs.
/// - **polling** every ``pollInterval``: always on, so a missed uevent, a missing udevd or a
///   fake tree (tests: a temp directory as `sysfsRoot`) still works, at most one interval late.
///
/// On ``start()`` the current state of every readable supply is reported (online → on,
/// offline → off); afterwards only changes. A missing attribute or unparsable content is
/// logged once per episode and reports nothing.
public final class PowerSupplyMonitor: Sendable {
    /// The supplies (`/sys/class/power_supply/NAME`) watched.
    public let supplies: [String]
    /// The vehicle id the signals name (nil: the engine's default vehicle).
    public let vehicle: String?
    /// The sysfs mount point; `/sys` in production, a temp directory in tests.
    public let sysfsRoot: String
    /// How often the attributes are re-read in any case.
    public let pollInterval: Duration

    private let logger: Logger
    private let onSignal: @Sendable (VehicleSignal) -> Void
    private let loop = EventLoopThread(name: "lb-power")

    /// - Parameters:
    ///   - supplies: power-supply names, e.g. `["AC"]` or `["ignition"]` (no `/`).
    ///   - vehicle: the vehicle id the signals carry.
    ///   - sysfsRoot: default `/sys`; any other root disables uevents (polling only).
    ///   - pollInterval: default 1 s; clamped to at least 10 ms.
    ///   - logger: where problems and changes are logged.
    ///   - onSignal: called on the monitor's thread for each signal; must return at once.
    public init(
        supplies: [String], vehicle: String? = nil, sysfsRoot: String = "/sys",
        pollInterval: Duration = .seconds(1), logger: Logger,
        onSignal: @escaping @Sendable (VehicleSignal) -> Void
    ) {
        self.supplies = supplies
        self.vehicle = vehicle
        self.sysfsRoot = sysfsRoot.count > 1 && sysfsRoot.hasSuffix("/") ? String(sysfsRoot.dropLast()) : sysfsRoot
        self.pollInterval = max(pollInterval, .milliseconds(10))
        self.logger = logger
        self.onSignal = onSignal
    }

    deinit { loop.stop(timeout: .zero) }

    /// Starts watching (reports the initial state first). Does nothing if already started.
    public func start() {
        let (supplies, vehicle, root, log, emit) = (supplies, vehicle, sysfsRoot, logger, onSignal)
        let interval = pollMilliseconds(pollInterval)
        let started = loop.start { control in
            // The watch's mutable state is created on, and stays on, the loop thread.
            let watch = PowerSupplyWatch(supplies: supplies, vehicle: vehicle, sysfsRoot: root, logger: log, emit: emit)
            PowerSupplyMonitor.run(watch, useUevents: root == "/sys", intervalMs: interval, control: control, logger: log)
        }
        if !started { logger.error("power-supply monitor: could not start its thread") }
    }

    /// Stops watching; returns within about 0.5 s.
    public func stop() {
        if !loop.stop() { logger.warning("power-supply monitor: thread did not stop within 0.5 s") }
    }

    /// The loop: scan, then sleep until a uevent, the poll interval or stop.
    private static func run(
        _ watch: PowerSupplyWatch, useUevents: Bool, intervalMs: Int32, control: LoopControl, logger: Logger
    ) {
        var source: DeviceEventSource?
        if useUevents {
            do {
                source = try DeviceEventSource(subsystem: "power_supply") { event in
                    logger.debug(
                        "power-supply uevent",
                        metadata: ["action": "\(event.action ?? "?")", "device": "\(event.sysname ?? "?")"])
                }
            } catch {
                logger.notice("power-supply monitor: no uevents, polling only", metadata: ["error": "\(error)"])
            }
        }
        var fds = [pollfd(fd: control.wakeFD, events: Int16(POLLIN), revents: 0)]
        if let source { fds.append(pollfd(fd: source.fd, events: Int16(POLLIN), revents: 0)) }
        while !control.stopRequested {
            watch.scan()
            let n = pollRetrying(&fds, timeoutMs: intervalMs)
            if n < 0 {
                logger.error("power-supply monitor: poll failed", metadata: ["error": "\(errnoText(n))"])
                return
            }
            if fds[0].revents != 0 { _ = control.take() }
            if fds.count > 1, fds[1].revents != 0 { source?.dispatch() }
        }
    }
}
