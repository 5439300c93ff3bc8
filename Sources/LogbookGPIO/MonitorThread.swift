// SPDX-License-Identifier: MIT
internal import CLogbookGPIOD
internal import Dispatch
internal import Synchronization
#if canImport(Glibc)
    internal import Glibc
#endif

/// A stop flag the loop thread polls between short waits.
final class StopFlag: Sendable {
    private let storage = Atomic<Bool>(false)
    var isSet: Bool { storage.load(ordering: .acquiring) }
    func set() { storage.store(true, ordering: .releasing) }
}

/// Box handing a closure to a new pthread.
private final class ThreadBody {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}

/// The monitor's dedicated OS thread: the libgpiod handles are created, used and freed on it
/// alone, and its blocking waits never tie up a Swift concurrency pool thread.
///
/// Simpler than LogbookSystemd's event loop on purpose: libgpiod v1 waits with a timeout, so the
/// loop polls a stop flag every ~100 ms instead of watching a wake descriptor.
final class MonitorThread: Sendable {
    private struct Running: Sendable {
        let stop: StopFlag
        let done: DispatchSemaphore
        let thread: pthread_t
    }

    private let name: String
    private let running = Mutex<Running?>(nil)

    /// - Parameter name: the thread name shown by `ps -L` / `top -H` (15 bytes at most).
    init(name: String) { self.name = String(name.utf8.prefix(15)) ?? "logbook-gpio" }

    /// True while a loop runs (between `start` and `stop`).
    var isRunning: Bool { running.withLock { $0 != nil } }

    /// Starts `body` on a new thread unless one runs already. `body` must return soon after
    /// the flag is set. Returns false if the thread could not be created.
    func start(_ body: @escaping @Sendable (StopFlag) -> Void) -> Bool {
        running.withLock { current in
            if current != nil { return true }
            let stop = StopFlag()
            let done = DispatchSemaphore(value: 0)
            let threadName = name
            let box = Unmanaged.passRetained(
                ThreadBody {
                    _ = cgpiod_set_thread_name(threadName)
                    body(stop)
                    done.signal()
                }
            ).toOpaque()
            var thread = pthread_t()
            let rc = pthread_create(
                &thread, nil,
                { arg in
                    guard let arg else { return nil }
                    Unmanaged<ThreadBody>.fromOpaque(arg).takeRetainedValue().run()
                    return nil
                }, box)
            guard rc == 0 else {
                Unmanaged<ThreadBody>.fromOpaque(box).release()
                return false
            }
            pthread_detach(thread)
            current = Running(stop: stop, done: done, thread: thread)
            return true
        }
    }

    /// Asks the loop to stop and waits up to `timeout` for it to finish. Called from the loop
    /// thread itself (from a callback) it only asks. Returns false if the loop did not finish in time.
    @discardableResult
    func stop(timeout: Duration = .milliseconds(500)) -> Bool {
        guard let current = running.withLock({ r -> Running? in
            defer { r = nil }
            return r
        }) else { return true }
        current.stop.set()
        if pthread_equal(pthread_self(), current.thread) != 0 { return true }
        let c = timeout.components
        let ms = Int(c.seconds * 1000 + c.attoseconds / 1_000_000_000_000_000)
        return current.done.wait(timeout: .now() + .milliseconds(ms)) == .success
    }
}
