// SPDX-License-Identifier: MIT
internal import LogbookCore
internal import LogbookSystemd
internal import Logging
internal import ServiceLifecycle

/// Runs the configured vehicle-signal monitors (power_supply, …) for the daemon's life and
/// feeds their signals to the pipeline. The monitors have threads of their own; this
/// service only starts and stops them.
struct SignalSourcesService: Service {
    let sources: [SourceConfiguration]
    let events: AsyncStream<PipelineEvent>.Continuation
    let logger: Logger

    func run() async {
        var stops: [@Sendable () -> Void] = []
        for source in sources {
            switch source.kind {
            case .powerSupply:
                guard let supply = source.supply else { continue }
                let monitor = PowerSupplyMonitor(
                    supplies: [supply], vehicle: source.vehicle, sysfsRoot: source.sysfsRoot,
                    pollInterval: .milliseconds(Int64(source.pollInterval * 1000)), logger: logger
                ) { [events] signal in events.yield(.signal(signal)) }
                monitor.start()
                stops.append { monitor.stop() }
                logger.info("watching power supply", metadata: ["supply": "\(supply)", "vehicle": "\(source.vehicle ?? "-")"])
            case .service, .motion:
                break  // handled by the pipeline and the trip engine
            case .bluetooth:
                logger.warning("bluetooth sources are not supported by this build yet", metadata: ["mac": "\(source.mac ?? "-")"])
            }
        }
        try? await gracefulShutdown()
        for stop in stops { stop() }
    }
}
