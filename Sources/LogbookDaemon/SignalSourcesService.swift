// SPDX-License-Identifier: MIT
internal import LogbookCore
internal import LogbookGPIO
internal import LogbookSystemd
internal import Logging
internal import ServiceLifecycle
internal import Synchronization

/// Runs the vehicle-signal monitors (power_supply, GPIO, BlueZ) and the logind inhibitor for the
/// daemon's life and feeds what they report to the pipeline. The monitors have threads of
/// their own; this service only starts and stops them.
struct SignalSourcesService: Service {
    let configuration: DaemonConfiguration
    let events: AsyncStream<PipelineEvent>.Continuation
    let logger: Logger

    func run() async {
        var stops: [@Sendable () -> Void] = []
        let signal: @Sendable (VehicleSignal) -> Void = { [events] in events.yield(.signal($0)) }
        for source in configuration.sources where source.kind == .powerSupply {
            guard let supply = source.supply else { continue }
            let monitor = PowerSupplyMonitor(
                supplies: [supply], vehicle: source.vehicle, sysfsRoot: source.sysfsRoot,
                pollInterval: .milliseconds(Int64(source.pollInterval * 1000)), logger: logger, onSignal: signal)
            monitor.start()
            stops.append { monitor.stop() }
            logger.info("watching power supply", metadata: ["supply": "\(supply)", "vehicle": "\(source.vehicle ?? "-")"])
        }
        for source in configuration.sources where source.kind == .gpio {
            guard let line = source.line, let offset = UInt32(exactly: line) else { continue }
            let monitor = GPIOIgnitionMonitor(
                chip: source.chip, line: offset, name: source.name, vehicle: source.vehicle,
                activeLow: source.activeLow, debounce: .milliseconds(source.debounceMilliseconds),
                logger: logger, onSignal: signal)
            monitor.start()
            stops.append { monitor.stop() }
            logger.info(
                "watching gpio line",
                metadata: ["chip": "\(source.chip)", "line": "\(offset)", "vehicle": "\(source.vehicle ?? "-")"])
        }
        // One BlueZ monitor per bus, each with its table of MAC → vehicle.
        let bluetooth = configuration.sources.filter { $0.kind == .bluetooth }
        for bus in Set(bluetooth.map(\.busAddress)) {
            var devices: [String: String?] = [:]
            for s in bluetooth where s.busAddress == bus { if let mac = s.mac { devices[mac] = .some(s.vehicle) } }
            let monitor = BluetoothMonitor(devices: devices, endpoint: DBusEndpoint(address: bus), logger: logger, onSignal: signal)
            monitor.start()
            stops.append { monitor.stop() }
            logger.info("watching bluetooth devices", metadata: ["devices": "\(devices.keys.sorted())"])
        }
        // Devices present only with the ignition on: one sd-device monitor for all rules.
        let rules = configuration.sources.filter { $0.kind == .device }.compactMap { source in
            source.match.flatMap { DeviceRule(parsing: $0, name: source.name, vehicle: source.vehicle) }
        }
        if !rules.isEmpty {
            let extra = configuration.sources.compactMap(\.subsystem)
            let subsystems = Array(Set(["usb", "tty"] + extra)).sorted()
            let monitor = DeviceMonitor(rules: rules, subsystems: subsystems, logger: logger, onSignal: signal)
            monitor.start()
            stops.append { monitor.stop() }
            logger.info("watching devices", metadata: ["devices": "\(rules.map(\.name))"])
        }
        if configuration.logindInhibitor {
            let holder = InhibitorHolder()
            let inhibitor = LogindInhibitor(endpoint: DBusEndpoint(address: configuration.logindBusAddress), logger: logger) { [events] _ in
                // Shutdown and sleep alike: close the trip, then let the system go.
                events.yield(.prepareForShutdown(done: { holder.release() }))
            }
            holder.set(inhibitor)
            inhibitor.start()
            stops.append { inhibitor.stop() }
        }
        try? await gracefulShutdown()
        for stop in stops { stop() }
    }
}

/// Lets the inhibitor's own callback reach the inhibitor to release its lock.
private final class InhibitorHolder: Sendable {
    private let inhibitor = Mutex<LogindInhibitor?>(nil)
    func set(_ i: LogindInhibitor) { inhibitor.withLock { $0 = i } }
    func release() { inhibitor.withLock { $0 }?.release() }
}
