// SPDX-License-Identifier: MIT
internal import LogbookGPSD
internal import ServiceLifecycle

/// Runs the gpsd reader thread for the life of the daemon and feeds its events to the pipeline.
struct GPSReaderService: Service {
    let source: GPSDSource
    let events: AsyncStream<PipelineEvent>.Continuation

    func run() async {
        await withGracefulShutdownHandler {
            await source.run { [events] batch in
                // Never waits: the stream buffers, the reader thread returns at once.
                events.yield(.gps(batch))
            }
        } onGracefulShutdown: {
            source.stop()
        }
    }
}

/// Yields a tick every second while the pipeline wants them (a trip open, or its summary
/// shown), so its timers run; while parked it waits without a timer (a parked car's battery:
/// the watchdog sends the pipeline its own ticks when systemd watches the daemon).
struct TickerService: Service {
    let events: AsyncStream<PipelineEvent>.Continuation
    let demand: TickDemand
    var interval: Duration = .seconds(1)
    /// The real clock; tests drive their own.
    var source: any TickSource = SleepingTickSource()

    func run() async {
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            // Both waits end at once on shutdown, so stopping never waits for a tick.
            await withGracefulShutdownHandler { await demand.waitUntilWanted() } onGracefulShutdown: { demand.set(true) }
            try? await cancelWhenGracefulShutdown { [interval, source] in try await source.next(after: interval) }
            events.yield(.tick)
        }
    }
}
