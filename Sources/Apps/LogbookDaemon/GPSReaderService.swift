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

/// Yields a tick every second so the pipeline's timers run and its heartbeat advances.
struct TickerService: Service {
    let events: AsyncStream<PipelineEvent>.Continuation
    var interval: Duration = .seconds(1)

    func run() async {
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            // The sleep ends at once on shutdown, so stopping never waits for a tick.
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            events.yield(.tick)
        }
    }
}
