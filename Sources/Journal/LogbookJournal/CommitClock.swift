// SPDX-License-Identifier: MIT
internal import LogbookPOSIX
import Synchronization

/// The time the writer thread's commit interval runs on: the monotonic clock in production, a
/// ``DrivenCommitClock`` in tests, which then move time instead of sleeping through intervals.
protocol CommitClock: Sendable {
    /// Now, in monotonic nanoseconds.
    func nanoseconds() -> UInt64
    /// Whether time moves only when a test says so: the writer then waits for wake-ups alone
    /// (no timed wait on the real clock) and checks its deadline each time the clock moves.
    var isDriven: Bool { get }
    /// Called with a function that wakes the writer, once it runs.
    func attach(wake: @escaping @Sendable () -> Void)
}

/// The monotonic clock: the writer sleeps in a timed wait until its commit deadline.
struct SystemCommitClock: CommitClock {
    func nanoseconds() -> UInt64 { MonotonicClock.nanoseconds() }
    var isDriven: Bool { false }
    func attach(wake: @escaping @Sendable () -> Void) {}
}

/// A clock a test moves with ``advance(by:)``; each move wakes the writers attached to it, which
/// commit if their interval has passed on this clock.
final class DrivenCommitClock: CommitClock {
    private struct State {
        var now: UInt64
        var wakes: [@Sendable () -> Void] = []
    }

    private let state: Mutex<State>

    /// Starts at the monotonic clock's now, so intervals measured against it are plausible.
    init() { state = Mutex(State(now: MonotonicClock.nanoseconds())) }

    func nanoseconds() -> UInt64 { state.withLock { $0.now } }
    var isDriven: Bool { true }
    func attach(wake: @escaping @Sendable () -> Void) { state.withLock { $0.wakes.append(wake) } }

    /// Moves the clock forward by `duration` and wakes the writers.
    func advance(by duration: Duration) {
        let (s, a) = duration.components
        let wakes = state.withLock { st in
            st.now &+= UInt64(s) * 1_000_000_000 &+ UInt64(a / 1_000_000_000)
            return st.wakes
        }
        for wake in wakes { wake() }
    }
}
