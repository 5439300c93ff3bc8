// SPDX-License-Identifier: MIT
#if canImport(Glibc)
    import Glibc
#endif

/// What a worker thread sleeps on: a stop request, or a nudge ("look again now").
///
/// Sinks block in C calls (libpq) and in waits for broker acknowledgements; both must run on
/// threads of their own, never on the Swift concurrency pool, and wake promptly on shutdown.
public final class WorkerSignal: @unchecked Sendable {
    // Safety: `stopped` and `nudged` are only touched with `mutex` held.
    private var stopped = false
    private var nudged = false
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let cond: UnsafeMutablePointer<pthread_cond_t>

    public init() {
        mutex = .allocate(capacity: 1)
        cond = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        var attr = pthread_condattr_t()
        pthread_condattr_init(&attr)
        pthread_condattr_setclock(&attr, CLOCK_MONOTONIC)
        pthread_cond_init(cond, &attr)
        pthread_condattr_destroy(&attr)
    }

    deinit {
        pthread_cond_destroy(cond)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        cond.deallocate()
    }

    /// True once ``stop()`` was called.
    public var isStopped: Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return stopped
    }

    /// Asks every sleeper to finish; idempotent.
    public func stop() {
        pthread_mutex_lock(mutex)
        stopped = true
        pthread_cond_broadcast(cond)
        pthread_mutex_unlock(mutex)
    }

    /// Wakes a sleeper early (e.g. a broker acknowledgement arrived).
    public func nudge() {
        pthread_mutex_lock(mutex)
        nudged = true
        pthread_cond_broadcast(cond)
        pthread_mutex_unlock(mutex)
    }

    /// Sleeps up to `seconds`, or until a nudge or stop. Returns false when stopped.
    @discardableResult
    public func sleep(_ seconds: Double) -> Bool {
        let deadline = UplinkClock.monotonic() + max(0, seconds)
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !stopped && !nudged {
            let now = UplinkClock.monotonic()
            if now >= deadline { break }
            let d = deadline
            var ts = timespec(tv_sec: Int(d), tv_nsec: Int((d - d.rounded(.down)) * 1e9))
            _ = pthread_cond_timedwait(cond, mutex, &ts)
        }
        nudged = false
        return !stopped
    }
}

/// Clocks without Foundation.
public enum UplinkClock {
    /// `CLOCK_MONOTONIC`, seconds.
    public static func monotonic() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Wall clock, nanoseconds since the epoch.
    public static func wallNanoseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }
}

/// A dedicated, detached OS thread.
public enum WorkerThread {
    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Starts `body` on a new thread.
    public static func start(_ body: @escaping @Sendable () -> Void) throws(UplinkError) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let rc = pthread_create(&thread, nil, { arg in
            guard let arg else { return nil }
            Unmanaged<Box>.fromOpaque(arg).takeRetainedValue().body()
            return nil
        }, box)
        guard rc == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            throw UplinkError.system("pthread_create failed (\(rc))")
        }
        pthread_detach(thread)
    }
}
