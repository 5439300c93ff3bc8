// SPDX-License-Identifier: MIT
#if canImport(Glibc)
    import Glibc
#endif

/// State behind a pthread mutex with a condition variable on `CLOCK_MONOTONIC`.
///
/// `Synchronization.Mutex` has no condition variable, and the writer thread must sleep until
/// a deadline *or* a wake-up (trip end, `sync()`, close); so this wraps the pthread pair.
final class ConditionLock<State>: @unchecked Sendable {
    // Safety: `state` is only touched with `mutex` held.
    private var state: State
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let cond: UnsafeMutablePointer<pthread_cond_t>

    init(_ initial: State) {
        state = initial
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

    func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }

    /// With the lock held, waits until `ready(state)` or the monotonic `deadline` (ns) passes,
    /// then runs `body`. A nil deadline waits for a ``signal()`` alone (no timed wake-ups: an
    /// idle writer must not wake a parked car's CPU).
    func wait<R>(until deadline: (State) -> UInt64?, ready: (State) -> Bool, then body: (inout State) -> R) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !ready(state) {
            guard let d = deadline(state) else {
                _ = pthread_cond_wait(cond, mutex)
                continue
            }
            if Monotonic.now() >= d { break }
            var ts = timespec(tv_sec: Int(d / 1_000_000_000), tv_nsec: Int(d % 1_000_000_000))
            _ = pthread_cond_timedwait(cond, mutex, &ts)
        }
        return body(&state)
    }

    /// Wakes the waiting thread.
    func signal() {
        pthread_mutex_lock(mutex)
        pthread_cond_broadcast(cond)
        pthread_mutex_unlock(mutex)
    }
}

/// `CLOCK_MONOTONIC` in nanoseconds.
enum Monotonic {
    static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }
}

/// A dedicated OS thread: the writer blocks in `fdatasync`, which must never happen on the
/// Swift concurrency pool.
enum OSThread {
    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Starts a detached thread running `body`.
    static func start(_ body: @escaping @Sendable () -> Void) throws {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let rc = pthread_create(&thread, nil, { arg in
            guard let arg else { return nil }
            let box = Unmanaged<Box>.fromOpaque(arg).takeRetainedValue()
            box.body()
            return nil
        }, box)
        guard rc == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            throw JournalError.internalInconsistency("pthread_create failed (\(rc))")
        }
        pthread_detach(thread)
    }
}

/// `flock(LOCK_EX|LOCK_NB)` on `<journal>/LOCK`, which also holds the owner's pid.
struct WriterLock: Sendable {
    let fd: Int32

    static func acquire(directory: String) throws -> WriterLock {
        let path = directory + "/LOCK"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw JournalError.io(JournalIOError(operation: "open", path: path, code: errno)) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let e = errno
            var buf = [UInt8](repeating: 0, count: 32)
            let n = buf.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 31, 0) }
            close(fd)
            if e == EWOULDBLOCK {
                let text = n > 0 ? String(decoding: buf[0..<n], as: UTF8.self) : ""
                throw JournalError.locked(directory: directory, pid: Int32(text.filter(\.isNumber)))
            }
            throw JournalError.io(JournalIOError(operation: "flock", path: path, code: e))
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        return WriterLock(fd: fd)
    }

    func release() {
        _ = flock(fd, LOCK_UN)
        close(fd)
    }
}
