// SPDX-License-Identifier: MIT
import Logging
import LogbookTestSupport
import ServiceLifecycle
import Synchronization
import Testing

@testable import LogbookDaemon

/// A tick source the test releases tick by tick, counting how often the ticker asked for one.
final class DrivenTickSource: TickSource {
    private struct State {
        var asks = 0
        var waiting: CheckedContinuation<Void, any Error>?
    }

    private let state = Mutex(State())

    /// How many ticks the ticker asked for.
    var asks: Int { state.withLock { $0.asks } }

    func next(after interval: Duration) async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
                let cancelled = state.withLock { s -> Bool in
                    s.asks += 1
                    if Task.isCancelled { return true }
                    s.waiting = c
                    return false
                }
                if cancelled { c.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            state.withLock { s in defer { s.waiting = nil }; return s.waiting }?.resume(throwing: CancellationError())
        }
    }

    /// Releases the tick the ticker waits for.
    func tick() { state.withLock { s in defer { s.waiting = nil }; return s.waiting }?.resume() }
}

/// The pipeline's ticker on a driven tick source: ticks only while the pipeline wants them, one
/// event per tick, none asked for while parked (a parked car's CPU is not woken).
@Suite struct TickerServiceTests {
    @Test(.timeLimit(.minutes(1)))
    func ticksOnlyWhileWantedAndAsksForNoneWhileParked() async throws {
        let (events, continuation) = AsyncStream.makeStream(of: PipelineEvent.self)
        let demand = TickDemand()
        let source = DrivenTickSource()
        let group = ServiceGroup(
            services: [TickerService(events: continuation, demand: demand, source: source)], logger: Logger(label: "ticker-test"))
        let running = Task { try await group.run() }
        var received = events.makeAsyncIterator()
        func isTick(_ e: PipelineEvent?) -> Bool { if case .tick = e { true } else { false } }

        // Parked from the start: the ticker waits for demand and asks for no tick.
        #expect(await eventually { demand.isParked })
        #expect(source.asks == 0)
        // Wanted: one event per driven tick.
        demand.set(true)
        for n in 1...3 {
            #expect(await eventually { source.asks == n }, "asked \(source.asks) times")
            source.tick()
            #expect(isTick(await received.next()))
        }
        // Parked again once the tick it waits for comes: it asks for no further one.
        #expect(await eventually { source.asks == 4 })
        demand.set(false)
        source.tick()
        #expect(isTick(await received.next()))
        #expect(await eventually { demand.isParked }, "the ticker did not park")
        #expect(source.asks == 4, "a parked ticker asked for a tick")
        // Wanted again: it asks at once; shutdown ends the wait without a tick.
        demand.set(true)
        #expect(await eventually { source.asks == 5 })
        await group.triggerGracefulShutdown()
        try await running.value
        continuation.finish()
    }
}
