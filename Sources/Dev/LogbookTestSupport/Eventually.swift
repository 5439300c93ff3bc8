// SPDX-License-Identifier: MIT

/// Checks `condition` until it holds or `timeout` passes; whether it held. For conditions a
/// test observes from outside (a file's content, a reply, a row, a log line): each check is an
/// event the test waits for, never a fixed sleep standing in for one. The one copy every suite
/// uses; a condition may itself wait (a request), and runs in the caller's isolation.
///
/// Time the waiting task could not run does not count against `timeout`: Swift Testing runs
/// suites side by side on the cooperative pool (one thread per core, two on CI), and a
/// CPU-heavy test can hold it for half a minute. A wait that resumes long after its sleep
/// ended was starved, not slow, and gets that time back (up to `maxStarvation` in all).
@discardableResult
public func eventually(
    _ timeout: Duration = .seconds(10), every: Duration = .milliseconds(50),
    maxStarvation: Duration = .seconds(120),
    isolation: isolated (any Actor)? = #isolation, _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let clock = ContinuousClock()
    var deadline = clock.now + timeout
    var forgiven = Duration.zero
    while clock.now < deadline {
        if try await condition() { return true }
        let asleep = clock.now
        try? await Task.sleep(for: every)
        let late = clock.now - asleep - every
        if late > .milliseconds(500) && forgiven < maxStarvation {
            deadline += late
            forgiven += late
        }
    }
    return try await condition()
}
