// SPDX-License-Identifier: MIT
internal import Synchronization

/// Whether the pipeline needs a tick every second: set by the pipeline after each event,
/// awaited by ``TickerService``, which otherwise sleeps without a timer.
final class TickDemand: Sendable {
    private struct State {
        var wanted = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    /// Sets whether ticks are wanted; wakes a waiting ticker when they are.
    func set(_ wanted: Bool) {
        let waiter = state.withLock { s -> CheckedContinuation<Void, Never>? in
            s.wanted = wanted
            guard wanted else { return nil }
            defer { s.waiter = nil }
            return s.waiter
        }
        waiter?.resume()
    }

    /// Whether the ticker waits here for ticks to be wanted (parked: no timer set).
    var isParked: Bool { state.withLock { $0.waiter != nil } }

    /// Returns once ticks are wanted (at once when they are), or when the task is cancelled.
    func waitUntilWanted() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                let now = state.withLock { s -> Bool in
                    if s.wanted || Task.isCancelled { return true }
                    s.waiter = c
                    return false
                }
                if now { c.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { s -> CheckedContinuation<Void, Never>? in
                defer { s.waiter = nil }
                return s.waiter
            }
            waiter?.resume()
        }
    }
}
