// SPDX-License-Identifier: MIT
package import LogbookCore
internal import Synchronization

/// Fan-out of live-state publications to watchers (called by the live-state publisher after each write).
///
/// `publish` only stores the document and nudges the socket threads (a non-blocking pipe
/// write): serializing and sending happen on those threads, so a slow or stalled watcher
/// can never delay the publisher.
package final class LiveUpdates: Sendable {
    private struct State {
        var generation: UInt64 = 0
        var document: JSONValue?
        var nextToken: UInt64 = 0
        var subscribers: [UInt64: @Sendable () -> Void] = [:]
    }

    private let state = Mutex(State())

    package init() {}

    /// Clients currently watching; the pipeline builds per-change documents only when > 0.
    private let watching = Atomic<Int>(0)
    package var hasWatchers: Bool { watching.load(ordering: .relaxed) > 0 }
    func watcherAdded() { watching.add(1, ordering: .relaxed) }
    func watcherRemoved() { watching.subtract(1, ordering: .relaxed) }

    /// Makes `document` the newest publication and wakes the subscribers. Never blocks.
    package func publish(_ document: JSONValue) {
        let wakers = state.withLock { state in
            state.generation += 1
            state.document = document
            return Array(state.subscribers.values)
        }
        for wake in wakers { wake() }
    }

    /// The newest publication and its generation (1 for the first), or nil before any.
    var latest: (generation: UInt64, document: JSONValue)? {
        state.withLock { state in state.document.map { (state.generation, $0) } }
    }

    /// Registers `wake`, called (on the publisher's thread) after each publication; it must not block.
    func subscribe(_ wake: @escaping @Sendable () -> Void) -> UInt64 {
        state.withLock { state in
            state.nextToken += 1
            state.subscribers[state.nextToken] = wake
            return state.nextToken
        }
    }

    /// Stops calling the waker registered under `token`.
    func unsubscribe(_ token: UInt64) {
        _ = state.withLock { $0.subscribers.removeValue(forKey: token) }
    }
}
