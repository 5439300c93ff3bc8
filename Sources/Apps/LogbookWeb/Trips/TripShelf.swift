// SPDX-License-Identifier: MIT
internal import Dispatch
internal import HTTPTypes
internal import LogbookCore
package import LogbookStore
internal import Synchronization

/// The trip index as the web app reads it: opened once, caught up with the journal at most
/// every ``Options/catchUpInterval`` seconds, queried on threads of its own.
///
/// GRDB and the index block, so every query runs on a Dispatch queue, never on the Swift
/// concurrency pool. The index file is a cache any reader may bring up to date (the daemon
/// never touches it); a damaged file is rebuilt once, as the CLI does.
package final class TripShelf: Sendable {
    package struct Options: Sendable {
        /// Seconds between catch-ups (a trip list shows at most this much staleness).
        package var catchUpInterval: Double = 2
        package init() {}
    }

    private struct State {
        var index: TripIndex?
        var caughtUpAt = -Double.infinity
    }

    package let path: String
    package let journalDirectory: String
    private let indexOptions: TripIndex.Options
    private let options: Options
    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "logbook-web.index", attributes: .concurrent)

    package init(path: String, journalDirectory: String, maxBridgedGap: Double, options: Options = Options()) {
        self.path = path
        self.journalDirectory = journalDirectory
        var indexOptions = TripIndex.Options()
        indexOptions.maxBridgedGap = maxBridgedGap
        self.indexOptions = indexOptions
        self.options = options
    }

    /// Runs `body` on the caught-up index on a thread of the shelf's queue.
    ///
    /// - Throws: ``APIError`` 503 `index_unavailable` when the index cannot be opened or read;
    ///   what `body` throws as an ``APIError`` passes unchanged.
    package func read<T: Sendable>(_ body: @escaping @Sendable (TripIndex) throws -> T) async throws(APIError) -> T {
        let result: Result<T, APIError> = await withCheckedContinuation { done in
            queue.async { [self] in done.resume(returning: blockingRead(body)) }
        }
        return try result.get()
    }

    /// The next read catches up whatever the interval says (after a write of this app's own,
    /// which the page it redirects to must show).
    package func invalidate() {
        state.withLock { $0.caughtUpAt = -Double.infinity }
    }

    private func blockingRead<T>(_ body: (TripIndex) throws -> T) -> Result<T, APIError> {
        do {
            let index = try caughtUp()
            do {
                return .success(try body(index))
            } catch TripIndexError.damaged {
                // A chunk failed its CRC or SQLite found a corrupt page: rebuild, try once more.
                return .success(try body(try rebuilt()))
            }
        } catch let error as APIError {
            return .failure(error)
        } catch {
            return .failure(APIError(.serviceUnavailable, "index_unavailable", "\(error)"))
        }
    }

    /// The open index, caught up when the last catch-up is older than the interval.
    private func caughtUp() throws -> TripIndex {
        try state.withLock { s throws -> TripIndex in
            let index = try s.index ?? TripIndex.open(path: path, journalDirectory: journalDirectory, options: indexOptions)
            s.index = index
            let now = WallClock.monotonic()
            guard now - s.caughtUpAt >= options.catchUpInterval else { return index }
            do throws(TripIndexError) {
                _ = try index.catchUp()
            } catch .busy {
                // Another process (the CLI's reindex) holds the write lock: show what is there.
            } catch .damaged {
                s.index = nil
                let fresh = try TripIndex.replace(path: path, journalDirectory: journalDirectory, options: indexOptions)
                _ = try fresh.rebuild()
                s.index = fresh
                s.caughtUpAt = WallClock.monotonic()
                return fresh
            }
            s.caughtUpAt = now
            return index
        }
    }

    private func rebuilt() throws -> TripIndex {
        try state.withLock { s throws -> TripIndex in
            try? s.index?.close()
            s.index = nil
            let fresh = try TripIndex.replace(path: path, journalDirectory: journalDirectory, options: indexOptions)
            _ = try fresh.rebuild()
            s.index = fresh
            s.caughtUpAt = WallClock.monotonic()
            return fresh
        }
    }
}
