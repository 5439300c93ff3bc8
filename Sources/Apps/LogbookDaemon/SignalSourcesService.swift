// SPDX-License-Identifier: MIT
internal import LogbookCore
internal import LogbookGPIO
internal import LogbookOBD
internal import LogbookSettings
internal import LogbookSystemd
internal import Logging
internal import ServiceLifecycle
internal import Synchronization

/// Runs the vehicle-signal monitors (power_supply, GPIO, BlueZ, devices, OBD adapters) and the logind
/// inhibitor for the daemon's life and feeds what they report to the pipeline. The monitors
/// have threads of their own; this service only starts and stops them — at start, and when
/// a reload (SIGHUP) changes the `[[source]]` list: only the monitors whose sources changed
/// are restarted, so an unchanged ignition source never blinks.
struct SignalSourcesService: Service {
    let configuration: Settings
    /// The new `[[source]]` list after each successful reload.
    let sourceChanges: AsyncStream<[SourceConfiguration]>
    let events: AsyncStream<PipelineEvent>.Continuation
    let logger: Logger

    func run() async {
        var monitors = SourceMonitors(events: events, logger: logger)
        monitors.apply(configuration.sources)
        var stopInhibitor: (@Sendable () -> Void)?
        if configuration.logindInhibitor {
            let holder = InhibitorHolder()
            let inhibitor = LogindInhibitor(endpoint: DBusEndpoint(address: configuration.logindBusAddress), logger: logger) { [events] _ in
                // Shutdown and sleep alike: close the trip, then let the system go.
                events.yield(.prepareForShutdown(done: { holder.release() }))
            }
            holder.set(inhibitor)
            inhibitor.start()
            stopInhibitor = { inhibitor.stop() }
        }
        for await sources in sourceChanges.cancelOnGracefulShutdown() { monitors.apply(sources) }
        monitors.apply([])
        stopInhibitor?()
    }
}

/// The running monitors, keyed by what they watch.
struct SourceMonitors {
    let events: AsyncStream<PipelineEvent>.Continuation
    let logger: Logger
    private var running: [Watch: @Sendable () -> Void] = [:]
    private var sources: [SourceConfiguration] = []

    init(events: AsyncStream<PipelineEvent>.Continuation, logger: Logger) {
        self.events = events
        self.logger = logger
    }

    /// What one monitor watches: a supply, a GPIO line, one bus's Bluetooth devices, or all
    /// device rules (one sd-device monitor serves them all).
    enum Watch: Hashable {
        case power(SourceConfiguration)
        case gpio(SourceConfiguration)
        case bluetooth(bus: String?, [SourceConfiguration])
        case devices([SourceConfiguration])
        case obd(SourceConfiguration)
    }

    static func watches(_ sources: [SourceConfiguration]) -> Set<Watch> {
        var out = Set<Watch>()
        for s in sources where s.kind == .powerSupply && s.supply != nil { out.insert(.power(s)) }
        for s in sources where s.kind == .gpio && s.line.flatMap(UInt32.init(exactly:)) != nil { out.insert(.gpio(s)) }
        let bluetooth = sources.filter { $0.kind == .bluetooth }
        for bus in Set(bluetooth.map(\.busAddress)) { out.insert(.bluetooth(bus: bus, bluetooth.filter { $0.busAddress == bus })) }
        let devices = sources.filter { $0.kind == .device && $0.match != nil }
        if !devices.isEmpty { out.insert(.devices(devices)) }
        for s in sources where s.obdEndpoint != nil { out.insert(.obd(s)) }
        return out
    }

    /// Starts and stops monitors so exactly `new`'s run. A source that is gone (no source of
    /// the same kind and name remains) reports "off", so the trip engine does not wait on it.
    mutating func apply(_ new: [SourceConfiguration]) {
        let wanted = Self.watches(new)
        for (watch, stop) in running where !wanted.contains(watch) {
            stop()
            running[watch] = nil
        }
        for watch in wanted where running[watch] == nil { running[watch] = start(watch) }
        for old in sources where old.kind != .service && old.kind != .motion
            && !new.contains(where: { $0.kind == old.kind && $0.name == old.name })
        {
            logger.info("source removed", metadata: ["source": "\(old.kind.rawValue):\(old.name)"])
            events.yield(.signal(old.signal(isOn: false)))
        }
        sources = new
    }

    private func start(_ watch: Watch) -> @Sendable () -> Void {
        let signal: @Sendable (VehicleSignal) -> Void = { [events] in events.yield(.signal($0)) }
        switch watch {
        case .power(let source):
            let monitor = PowerSupplyMonitor(
                supplies: [source.supply ?? ""], vehicle: source.vehicle, sysfsRoot: source.sysfsRoot,
                pollInterval: .milliseconds(Int64(source.pollInterval * 1000)), logger: logger, onSignal: signal)
            monitor.start()
            logger.info("watching power supply", metadata: ["supply": "\(source.supply ?? "")", "vehicle": "\(source.vehicle ?? "-")"])
            return { monitor.stop() }
        case .gpio(let source):
            let offset = source.line.flatMap(UInt32.init(exactly:)) ?? 0
            let monitor = GPIOIgnitionMonitor(
                chip: source.chip, line: offset, name: source.name, vehicle: source.vehicle,
                activeLow: source.activeLow, debounce: .milliseconds(source.debounceMilliseconds),
                logger: logger, onSignal: signal)
            monitor.start()
            logger.info("watching gpio line", metadata: ["chip": "\(source.chip)", "line": "\(offset)", "vehicle": "\(source.vehicle ?? "-")"])
            return { monitor.stop() }
        case .bluetooth(let bus, let sources):
            var devices: [String: String?] = [:]
            for s in sources { if let mac = s.mac { devices[mac] = .some(s.vehicle) } }
            let monitor = BluetoothMonitor(devices: devices, endpoint: DBusEndpoint(address: bus), logger: logger, onSignal: signal)
            monitor.start()
            logger.info("watching bluetooth devices", metadata: ["devices": "\(devices.keys.sorted())"])
            return { monitor.stop() }
        case .devices(let sources):
            let rules = sources.compactMap { s in s.match.flatMap { DeviceRule(parsing: $0, name: s.name, vehicle: s.vehicle) } }
            let subsystems = Array(Set(["usb", "tty"] + sources.compactMap(\.subsystem))).sorted()
            let monitor = DeviceMonitor(rules: rules, subsystems: subsystems, logger: logger, onSignal: signal)
            monitor.start()
            logger.info("watching devices", metadata: ["devices": "\(rules.map(\.name))"])
            return { monitor.stop() }
        case .obd(let source):
            guard let endpoint = source.obdEndpoint else { return {} }
            let obd = OBDSource(name: source.name, endpoint: endpoint, logger: logger)
            let name = source.name
            obd.start { [events] in events.yield(.obd(source: name, $0)) }
            logger.info("reading the car through OBD", metadata: ["source": "\(name)", "adapter": "\(endpoint)", "vehicle": "\(source.vehicle ?? "-")"])
            return { obd.stop() }
        }
    }
}

/// Lets the inhibitor's own callback reach the inhibitor to release its lock.
private final class InhibitorHolder: Sendable {
    private let inhibitor = Mutex<LogindInhibitor?>(nil)
    func set(_ i: LogindInhibitor) { inhibitor.withLock { $0 = i } }
    func release() { inhibitor.withLock { $0 }?.release() }
}
