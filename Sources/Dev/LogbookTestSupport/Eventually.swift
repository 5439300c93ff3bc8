// SPDX-License-Identifier: MIT

/// Checks `condition` until it holds or `timeout` passes; whether it held. For conditions a
/// test observes from outside (a file's content, a reply, a row, a log line): each check is an
/// event the test waits for, never a fixed sleep standing in for one. The one copy every suite
/// uses; a condition may itself wait (a request), and runs in the caller's isolation.
public func eventually(
    _ timeout: Duration = .seconds(10), every: Duration = .milliseconds(50),
    isolation: isolated (any Actor)? = #isolation, _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: every)
    }
    return try await condition()
}
