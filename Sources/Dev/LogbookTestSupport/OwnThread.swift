// SPDX-License-Identifier: MIT
import LogbookPOSIX

/// Runs CPU-bound `work` on a thread of its own and awaits its result. Swift Testing runs
/// suites side by side on the cooperative pool, which has one thread per core (two on CI): a
/// harness that computes for half a minute there leaves every other test's awaits waiting.
public func onOwnThread<T: Sendable>(
    _ name: String, _ work: @escaping @Sendable () throws -> T
) async throws -> T {
    try await withCheckedThrowingContinuation { (c: CheckedContinuation<T, any Error>) in
        do {
            try NamedThread.start(name: name) { c.resume(with: Result { try work() }) }
        } catch {
            c.resume(throwing: error)
        }
    }
}
