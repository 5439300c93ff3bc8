// SPDX-License-Identifier: MIT
#if canImport(Glibc)
    internal import Glibc
#endif

/// State behind a pthread mutex with a condition variable whose timed waits run on
/// `CLOCK_MONOTONIC` (``MonotonicClock``), so a wall-clock step neither cuts nor stretches them.
///
/// `Synchronization.Mutex` has no condition variable, and a thread that must sleep until a
/// deadline *or* a wake-up (the journal's writer: the commit interval, a trip end, `close()`;
/// an uplink worker: its retry delay, a nudge, stop) needs both; so this wraps the pthread pair.
public final class ConditionLock<State>: @unchecked Sendable {
    // Safety: `state` is only touched with `mutex` held.
    private var state: State
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    public init(_ initial: State) {
        state = initial
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        condition.deallocate()
    }

    /// Runs `body` with the lock held.
    public func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }

    /// With the lock held, waits until `ready(state)` or the monotonic `deadline`
    /// (``MonotonicClock/nanoseconds()``, read again after every wake-up) passes, then runs `body`.
    public func wait<R>(
        until deadline: (State) -> UInt64?, ready: (State) -> Bool, then body: (inout State) throws -> R
    ) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !ready(state) {
            // No deadline: wait for a signal alone (an idle journal writer must not wake a
            // parked car's CPU).
            guard let d = deadline(state) else {
                _ = pthread_cond_wait(condition, mutex)
                continue
            }
            if MonotonicClock.nanoseconds() >= d { break }
            var until = timespec(tv_sec: Int(d / 1_000_000_000), tv_nsec: Int(d % 1_000_000_000))
            _ = pthread_cond_timedwait(condition, mutex, &until)
        }
        return try body(&state)
    }

    /// Changes the state and wakes every waiter, which then checks its `ready` again.
    public func signal(_ change: (inout State) -> Void = { _ in }) {
        pthread_mutex_lock(mutex)
        change(&state)
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }
}
