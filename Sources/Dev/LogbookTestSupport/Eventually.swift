// SPDX-License-Identifier: MIT

/// Checks `condition` until it holds or `timeout` passes; whether it held. For conditions a
/// test observes from outside (a file's content, a reply, a row): each check is an event the
/// test waits for, never a fixed sleep standing in for one.
public func eventually(
    _ timeout: Duration = .seconds(10), every: Duration = .milliseconds(50), _ condition: () throws -> Bool
) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try condition() { return true }
        try? await Task.sleep(for: every)
    }
    return try condition()
}
