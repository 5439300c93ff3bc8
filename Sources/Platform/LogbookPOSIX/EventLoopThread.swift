// SPDX-License-Identifier: MIT
internal import CLogbookPOSIX
internal import Synchronization
#if canImport(Glibc)
    internal import Glibc
#endif

/// Requests a loop thread reads when its wake descriptor fires.
package struct LoopRequest: OptionSet, Sendable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Leave the loop and release everything.
    package static let stop = LoopRequest(rawValue: 1)
    /// Monitor-specific (the logind inhibitor: release the delay lock now).
    package static let release = LoopRequest(rawValue: 2)
    /// Do the loop's work now rather than at its next timeout (the live-state publisher).
    package static let now = LoopRequest(rawValue: 4)
}

/// The channel between a monitor's public API (any thread) and its loop thread.
///
/// Requests are bits in an atomic; an eventfd wakes the loop's `poll` so it reacts at once.
/// The eventfd is closed when the last reference goes, i.e. after the loop has exited.
package final class LoopControl: Sendable {
    /// Readable while a request waits; the loop polls it beside its own descriptors.
    package let wakeFD: Int32
    private let requests = Atomic<UInt8>(0)

    init?() {
        let fd = eventfd(0, Int32(EFD_CLOEXEC) | Int32(EFD_NONBLOCK))
        guard fd >= 0 else { return nil }
        wakeFD = fd
    }

    deinit { close(wakeFD) }

    /// Posts `request` and wakes the loop.
    package func post(_ request: LoopRequest) {
        requests.bitwiseOr(request.rawValue, ordering: .acquiringAndReleasing)
        var one: UInt64 = 1
        _ = write(wakeFD, &one, MemoryLayout<UInt64>.size)
    }

    /// True once stop was posted (the loop checks it between iterations).
    package var stopRequested: Bool {
        LoopRequest(rawValue: requests.load(ordering: .acquiring)).contains(.stop)
    }

    /// Sleeps until a request is posted or `timeout` passes (nil: no timeout), then takes
    /// the requests: for a loop with no descriptor of its own.
    package func wait(timeout: Duration?) -> LoopRequest {
        var fds = [pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
        _ = pollRetrying(&fds, timeoutMs: timeout.map(pollMilliseconds) ?? -1)
        return take()
    }

    /// Takes the posted requests except `.stop`, which stays set; drains the eventfd.
    package func take() -> LoopRequest {
        var value: UInt64 = 0
        _ = read(wakeFD, &value, MemoryLayout<UInt64>.size)
        let old = requests.bitwiseAnd(LoopRequest.stop.rawValue, ordering: .acquiringAndReleasing).oldValue
        return LoopRequest(rawValue: old)
    }
}

/// One monitor's dedicated OS thread (a ``NamedThread``): C handles are created, used and
/// freed on it alone, and blocking `poll` never ties up a Swift concurrency pool thread.
package final class EventLoopThread: Sendable {
    private struct Running: Sendable {
        let control: LoopControl
        let done: ConditionLock<Bool>
        let thread: NamedThread
    }

    private let name: String
    private let running = Mutex<Running?>(nil)

    /// - Parameter name: the thread name shown by `ps -L` / `top -H` (15 bytes at most).
    package init(name: String) { self.name = name }

    /// True while a loop runs (between `start` and `stop`).
    package var isRunning: Bool { running.withLock { $0 != nil } }

    /// Starts `body` on a new thread unless one runs already. `body` must return soon after
    /// `control.stopRequested` becomes true (its wake fd is readable then).
    /// Returns false if the thread or its eventfd could not be created.
    package func start(_ body: @escaping @Sendable (LoopControl) -> Void) -> Bool {
        running.withLock { current in
            if current != nil { return true }
            guard let control = LoopControl() else { return false }
            let done = ConditionLock(false)
            guard
                let thread = try? NamedThread.start(
                    name: name,
                    body: {
                        body(control)
                        done.signal { $0 = true }
                    })
            else { return false }
            current = Running(control: control, done: done, thread: thread)
            return true
        }
    }

    /// Posts a request (e.g. `.release`) to the running loop; ignored when stopped.
    package func post(_ request: LoopRequest) {
        running.withLock { $0?.control.post(request) }
    }

    /// Asks the loop to stop and waits up to `timeout` for it to finish.
    /// Called from the loop thread itself (from a callback) it only asks.
    /// Returns false if the loop did not finish in time.
    @discardableResult
    package func stop(timeout: Duration = .milliseconds(500)) -> Bool {
        guard let current = running.withLock({ r -> Running? in
            defer { r = nil }
            return r
        }) else { return true }
        current.control.post(.stop)
        if current.thread.isCurrent { return true }
        let (sum, overflow) = MonotonicClock.nanoseconds().addingReportingOverflow(nanoseconds(timeout))
        let deadline = overflow ? UInt64.max : sum
        return current.done.wait(until: { _ in deadline }, ready: { $0 }, then: { $0 })
    }
}

/// Whole nanoseconds in `duration`, at least 0, saturating.
private func nanoseconds(_ duration: Duration) -> UInt64 {
    let (seconds, attoseconds) = duration.components
    guard seconds >= 0, attoseconds >= 0 else { return 0 }
    let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
    return overflow ? .max : whole &+ UInt64(attoseconds / 1_000_000_000)
}
