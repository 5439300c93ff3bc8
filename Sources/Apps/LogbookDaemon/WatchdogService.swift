// SPDX-License-Identifier: MIT
internal import LogbookCore
internal import LogbookGPSD
internal import LogbookSystemd
internal import Logging
internal import ServiceLifecycle
internal import LogbookPOSIX

/// Pings systemd's watchdog only while the daemon's own loops make progress.
///
/// Both the gpsd reader thread and the pipeline must have turned recently; a hung daemon
/// stops pinging and systemd restarts it. gpsd being absent does not stop the pings: the
/// reader keeps turning while it retries, and a reader waiting in `poll(2)` counts as turning.
/// While parked the pipeline gets no ticks (a parked car's battery), so each round sends it
/// one: it has turned by the next round unless it is hung.
struct WatchdogService: Service {
    let interval: Duration
    let notifier: SystemdNotifier
    let state: DaemonState
    let reader: GPSDSource
    let events: AsyncStream<PipelineEvent>.Continuation
    let logger: Logger

    /// A loop counts as alive if it turned within this time (half the watchdog interval,
    /// at least 3 s so a 1 s tick and a 0.5 s read timeout fit with room).
    var staleAfter: Duration { max(interval / 2, .seconds(3)) }

    func run() async {
        let period = interval / 4
        var warned = false
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            let now = Int64(MonotonicClock.nanoseconds())
            let limit = Int64(staleAfter.components.seconds) * 1_000_000_000
                + staleAfter.components.attoseconds / 1_000_000_000
            let pipelineAge = now - state.lastPipelineTurn
            let readerAge = now - reader.lastHeartbeat
            if pipelineAge < limit, reader.isTurning(within: limit, now: now) {
                notifier.watchdog()
                warned = false
            } else if !warned {
                logger.error(
                    "a loop stopped turning; withholding watchdog pings",
                    metadata: ["pipeline_age_ms": "\(pipelineAge / 1_000_000)", "reader_age_ms": "\(readerAge / 1_000_000)"])
                warned = true
            }
            events.yield(.tick)
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: period) }
        }
    }
}

/// The first service to hear of a shutdown: tells systemd at once.
struct ShutdownNotifierService: Service {
    let notifier: SystemdNotifier
    let logger: Logger

    func run() async {
        try? await gracefulShutdown()
        logger.info("stopping")
        notifier.stopping(status: "stopping")
        notifier.flush()
    }
}
