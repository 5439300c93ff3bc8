// SPDX-License-Identifier: MIT
internal import LogbookCore
internal import LogbookPOSIX
internal import Logging
internal import ServiceLifecycle
internal import Synchronization

/// Replaces `live.json` atomically (``LiveFileWriter``) on a thread of its own: file writes
/// never run on the Swift concurrency pool, and a stalled pipeline or socket client never
/// delays them.
///
/// Every `interval` (at most 2 s) while a trip is open; every ``parkedInterval`` while parked
/// (a parked car's battery: one wake-up per publication, no other timer); and at once when
/// the pipeline asks (``publishNow()``: a trip started or ended).
final class LiveStatePublisher: Service, Sendable {
    let path: String
    let interval: Duration
    let state: DaemonState
    let logger: Logger
    private let thread = EventLoopThread(name: "logbook-live")
    /// Used by the thread, then (after it stopped) by the final publication: never at once.
    private let file: Mutex<LiveFileWriter>

    /// While no trip is open: the file must still change at least every 2 s. 0.5 s of margin
    /// because a starved thread wakes late: at 1.9 s, a test beside a pass of parallel tests on
    /// two cores measured ages of 1.86–1.90 s, with nothing left for a slower machine.
    static let parkedInterval: Duration = .milliseconds(1500)

    init(path: String, interval: Duration, state: DaemonState, logger: Logger) {
        self.path = path
        self.interval = interval
        self.state = state
        self.logger = logger
        file = Mutex(LiveFileWriter(path: path))
    }

    /// Publishes now rather than at the next interval.
    func publishNow() { thread.post(.now) }

    func run() async {
        let started = thread.start { [self] control in
            while !control.stopRequested {
                publish()
                let wait = state.hasTrip ? interval : max(interval, Self.parkedInterval)
                _ = control.wait(timeout: wait)
            }
        }
        if !started { logger.critical("cannot start the live-state thread; live.json is written at shutdown only") }
        try? await gracefulShutdown()
        thread.stop(timeout: .seconds(2))
        // The final state (disconnected, trip closed) is what readers see after we exit.
        publish()
    }

    private func publish() {
        let doc = state.nextPublication(at: wallClockNow())
        let bytes = Array((doc.json.serialized + "\n").utf8)
        let rc = file.withLock { $0.replace(with: bytes) }
        if rc != 0 { logger.error("cannot write live state", metadata: ["path": "\(path)", "error": "\(errnoText(rc))"]) }
    }
}
