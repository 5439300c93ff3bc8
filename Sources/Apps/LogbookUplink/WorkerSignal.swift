// SPDX-License-Identifier: MIT
internal import LogbookPOSIX

/// What a worker thread sleeps on: a stop request, or a nudge ("look again now").
///
/// Sinks block in C calls (libpq) and in waits for broker acknowledgements; both run on
/// threads of their own (``LogbookPOSIX/NamedThread``), never on the Swift concurrency pool,
/// and wake promptly on shutdown.
public final class WorkerSignal: Sendable {
    private struct Flags {
        var stopped = false
        var nudged = false
    }

    private let flags = ConditionLock(Flags())

    public init() {}

    /// True once ``stop()`` was called.
    public var isStopped: Bool { flags.withLock { $0.stopped } }

    /// Asks every sleeper to finish; idempotent.
    public func stop() { flags.signal { $0.stopped = true } }

    /// Wakes a sleeper early (e.g. a broker acknowledgement arrived).
    public func nudge() { flags.signal { $0.nudged = true } }

    /// Sleeps up to `seconds`, or until a nudge or stop. Returns false when stopped.
    @discardableResult
    public func sleep(_ seconds: Double) -> Bool {
        let deadline = MonotonicClock.nanoseconds() &+ UInt64((max(0, min(seconds, 1e9)) * 1e9).rounded())
        return flags.wait(
            until: { _ in deadline }, ready: { $0.stopped || $0.nudged },
            then: { flags in
                flags.nudged = false
                return !flags.stopped
            })
    }
}
