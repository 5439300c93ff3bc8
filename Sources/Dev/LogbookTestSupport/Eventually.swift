// SPDX-License-Identifier: MIT

/// A test's deadline that does not count time its task could not run. Swift Testing runs
/// suites side by side on the cooperative pool (one thread per core, two on CI), and CPU-bound
/// tests or a loaded machine can hold it for many seconds: a wait that resumes long after its
/// sleep ended was starved, not slow, and gets that time back (up to `maxStarvation` in all).
/// Waits loop `while !deadline.passed { …; await deadline.sleep(for: step) }`.
public struct TestDeadline: Sendable {
    private let clock = ContinuousClock()
    private var end: ContinuousClock.Instant
    private var forgiven = Duration.zero
    private let maxStarvation: Duration

    public init(_ timeout: Duration, maxStarvation: Duration = .seconds(120)) {
        end = clock.now + timeout
        self.maxStarvation = maxStarvation
    }

    /// Whether the time is up.
    public var passed: Bool { clock.now >= end }

    /// Sleeps for `step`; a resumption more than 0.5 s late moves the deadline by as much.
    public mutating func sleep(for step: Duration) async {
        let asleep = clock.now
        try? await Task.sleep(for: step)
        let late = clock.now - asleep - step
        if late > .milliseconds(500) && forgiven < maxStarvation {
            end += late
            forgiven += late
        }
    }
}

/// Checks `condition` until it holds or `timeout` passes (a ``TestDeadline``); whether it held.
/// For conditions a test observes from outside (a file's content, a reply, a row, a log line):
/// each check is an event the test waits for, never a fixed sleep standing in for one. The one
/// copy every suite uses; a condition may itself wait (a request), and runs in the caller's
/// isolation.
@discardableResult
public func eventually(
    _ timeout: Duration = .seconds(10), every: Duration = .milliseconds(50),
    isolation: isolated (any Actor)? = #isolation, _ condition: () async throws -> Bool
) async rethrows -> Bool {
    var deadline = TestDeadline(timeout)
    while !deadline.passed {
        if try await condition() { return true }
        await deadline.sleep(for: every)
    }
    return try await condition()
}
