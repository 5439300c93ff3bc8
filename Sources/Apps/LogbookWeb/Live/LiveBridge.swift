// SPDX-License-Identifier: MIT
internal import Dispatch
package import Logging
internal import LogbookControl
internal import LogbookCore
internal import ServiceLifecycle
internal import Synchronization

/// Brings the daemon's live state to any number of browsers with one `watch` connection.
///
/// A thread of its own holds the control socket's `watch` stream (``ControlClient`` blocks,
/// so it never runs on the Swift concurrency pool) while anyone listens, and for
/// ``Options/linger`` seconds after the last one left, so a page reload does not cost the
/// daemon a new watcher. Each document is fanned out to every subscriber's stream, which
/// keeps only the newest one: a slow phone skips documents, never delays the others. When
/// the socket is gone it reconnects with backoff and meanwhile reads `live.json` each second.
package final class LiveBridge: Service, Sendable {
    package struct Options: Sendable {
        /// Seconds the watch stays open after the last subscriber left.
        package var linger: Double = 30
        /// Seconds between `live.json` reads while the socket is gone.
        package var fileInterval: Double = 1
        /// Longest wait between reconnection attempts.
        package var maxBackoff: Double = 5
        /// A watch that is silent this long is considered dead (the daemon sends ≥ every 2 s).
        package var readTimeout: Double = 5
        package init() {}
    }

    private struct State {
        var subscribers: [Int: AsyncStream<LiveDocument>.Continuation] = [:]
        var nextID = 0
        var latest: LiveDocument?
        var lastLeft = -Double.infinity
        var stopped = false
        var watching = false
        var watchConnections = 0
    }

    private let socketPath: String
    private let file: LiveFile
    private let options: Options
    private let logger: Logger
    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)

    package init(socketPath: String, liveStatePath: String, options: Options = Options(), logger: Logger) {
        self.socketPath = socketPath
        self.file = LiveFile(path: liveStatePath)
        self.options = options
        self.logger = logger
    }

    /// A stream of documents: the newest known one at once, then each new one.
    package func subscribe() -> AsyncStream<LiveDocument> {
        let (stream, continuation) = AsyncStream<LiveDocument>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { s in
            let id = s.nextID
            s.nextID += 1
            s.subscribers[id] = continuation
            if let latest = s.latest, s.watching || WallClock.monotonic() - latest.receivedAt < 3 { continuation.yield(latest) }
            return id
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { s in
                s.subscribers[id] = nil
                if s.subscribers.isEmpty { s.lastLeft = WallClock.monotonic() }
            }
        }
        wake.signal()
        return stream
    }

    /// Browsers listening now.
    package var subscriberCount: Int { state.withLock { $0.subscribers.count } }
    /// `watch` connections opened since start (one per outage or idle period, not per client).
    package var watchConnections: Int { state.withLock { $0.watchConnections } }
    /// True while a `watch` stream is open.
    package var isWatching: Bool { state.withLock { $0.watching } }

    /// The current document: the watch stream's newest while it runs, else `live.json`.
    package func current() throws(LiveFile.Problem) -> LiveDocument {
        let now = WallClock.monotonic()
        if let latest = state.withLock({ s in s.watching ? s.latest : nil }), now - latest.receivedAt < 3 { return latest }
        return try file.read(now: now)
    }

    package func run() async throws {
        let started = startThread { [self] in loop() }
        guard started else { throw LiveBridgeError.threadNotStarted }
        try? await gracefulShutdown()
        stop()
    }

    /// Ends the thread (within one read timeout) and every subscriber's stream.
    package func stop() {
        let subscribers = state.withLock { s in
            s.stopped = true
            return Array(s.subscribers.values)
        }
        for s in subscribers { s.finish() }
        wake.signal()
    }

    private var stopped: Bool { state.withLock { $0.stopped } }

    private var hasDemand: Bool {
        state.withLock { s in !s.subscribers.isEmpty || WallClock.monotonic() - s.lastLeft < options.linger }
    }

    private func loop() {
        var backoff = 0.25
        var outage: String?
        while !stopped {
            guard hasDemand else {
                _ = wake.wait(timeout: .now() + 1)
                continue
            }
            do throws(ControlClient.Failure) {
                let client = try ControlClient(socketPath: socketPath, timeout: 2)
                try client.send(.object([("cmd", .string("watch"))]))
                state.withLock {
                    $0.watching = true
                    $0.watchConnections += 1
                }
                if outage != nil { logger.info("live: watching logbookd again", metadata: ["socket": "\(socketPath)"]) }
                outage = nil
                backoff = 0.25
                defer { state.withLock { $0.watching = false } }
                while !stopped, hasDemand {
                    let (json, text) = try client.readReply(timeout: options.readTimeout)
                    publish(LiveDocument(text: text, json: json, origin: .socket, receivedAt: WallClock.monotonic()))
                }
            } catch {
                if outage == nil {
                    logger.notice("live: control socket unavailable, following live.json", metadata: ["reason": "\(error)"])
                }
                outage = "\(error)"
                followFile(for: backoff)
                backoff = min(backoff * 2, options.maxBackoff)
            }
        }
    }

    /// Reads `live.json` every ``Options/fileInterval`` for `seconds`, publishing what changed.
    private func followFile(for seconds: Double) {
        let until = WallClock.monotonic() + seconds
        repeat {
            if let doc = try? file.read() {
                let changed = state.withLock { s in
                    s.latest.map { $0.updatedAt != doc.updatedAt || $0.sequence != doc.sequence || $0.origin != .file } ?? true
                }
                if changed { publish(doc) }
            }
            let left = until - WallClock.monotonic()
            guard left > 0 else { break }
            _ = wake.wait(timeout: .now() + min(options.fileInterval, left))
        } while !stopped && hasDemand && WallClock.monotonic() < until
    }

    private func publish(_ doc: LiveDocument) {
        let subscribers = state.withLock { s in
            s.latest = doc
            return Array(s.subscribers.values)
        }
        for s in subscribers { s.yield(doc) }
    }
}

/// Why the live bridge could not run.
package enum LiveBridgeError: Error {
    case threadNotStarted
}
