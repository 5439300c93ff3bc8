// SPDX-License-Identifier: MIT
internal import LogbookControl
internal import LogbookCore
internal import LogbookPOSIX
internal import Logging
internal import Synchronization
#if canImport(Glibc)
    internal import Glibc
#endif

/// The control socket's OS thread and what other threads may hand it.
///
/// The thread (a ``LogbookPOSIX/NamedThread``: `poll(2)` blocks, which the Swift concurrency
/// pool must never do) owns the listener and every client; see ``ControlSocketLoop``. Other threads
/// reach it only through this object: `stop()`, `complete(_:line:)` and the wake pipe,
/// which ``LiveUpdates`` pokes after each publication. None of these block.
final class ControlSocketServer: Sendable {
    /// A write command on its way to ``ControlHandler/execute(_:_:)``.
    struct Job: Sendable {
        /// The connection to answer.
        let connection: UInt64
        let command: String
        let request: JSONValue
        /// The request's `id`, echoed in the reply.
        let id: JSONValue?
    }

    private enum Phase { case running, exited(failure: String?) }

    private struct Shared {
        var stopping = false
        var phase = Phase.running
        var completions: [(UInt64, [UInt8])] = []
        var waiters: [CheckedContinuation<String?, Never>] = []
    }

    /// Read end of the wake pipe; the thread polls it.
    let wakeFD: Int32
    private let wakeWriteFD: Int32
    private let shared = Mutex(Shared())

    init() throws(ControlSocketError) {
        // A socket pair rather than pipe2, which Glibc's module does not export.
        var fds: [Int32] = [-1, -1]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, type, 0, &fds) == 0 else { throw .system("socketpair", "wake pipe", SystemError.text(errno)) }
        wakeFD = fds[0]
        wakeWriteFD = fds[1]
    }

    // Closed only here: once nothing refers to the server, nobody can write to a reused fd.
    deinit {
        close(wakeFD)
        close(wakeWriteFD)
    }

    /// Starts the thread serving `listener`; it closes the listener (and removes its file) on exit.
    func start(
        listener: ControlSocketListener, handler: any ControlHandler, updates: LiveUpdates,
        jobs: AsyncStream<Job>.Continuation, limits: ControlSocketService.Limits, logger: Logger
    ) throws(ControlSocketError) {
        do throws(SystemError) {
            try NamedThread.start(name: "lb-control") { [self] in
                let loop = ControlSocketLoop(
                    server: self, listener: listener, handler: handler, updates: updates, jobs: jobs, limits: limits,
                    logger: logger)
                let failure = loop.run()
                listener.close()
                jobs.finish()
                exited(failure: failure)
            }
        } catch {
            listener.close()
            jobs.finish()
            throw .system("pthread_create", "server thread", error.reason)
        }
    }

    /// Asks the thread to close every connection and the listener, and to end.
    func stop() {
        shared.withLock { $0.stopping = true }
        wake()
    }

    var isStopping: Bool { shared.withLock { $0.stopping } }

    /// Hands the reply to a write command back to the thread.
    func complete(_ connection: UInt64, line: [UInt8]) {
        let accepted = shared.withLock { state in
            guard !state.stopping else { return false }
            state.completions.append((connection, line))
            return true
        }
        if accepted { wake() }
    }

    /// The replies handed back since the last call.
    func takeCompletions() -> [(UInt64, [UInt8])] {
        shared.withLock { state in
            defer { state.completions = [] }
            return state.completions
        }
    }

    /// Makes the thread's `poll` return. A full pipe already holds a wake-up, so EAGAIN is fine.
    func wake() {
        var byte: UInt8 = 1
        _ = send(wakeWriteFD, &byte, 1, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
    }

    /// Empties the wake pipe (on the thread).
    func drainWake() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while buffer.withUnsafeMutableBytes({ read(wakeFD, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// Waits until the thread has ended; returns why it failed, nil after `stop()`.
    func waitUntilStopped() async -> String? {
        await withCheckedContinuation { continuation in
            let done: String?? = shared.withLock { state in
                if case .exited(let failure) = state.phase { return .some(failure) }
                state.waiters.append(continuation)
                return nil
            }
            if let done { continuation.resume(returning: done) }
        }
    }

    private func exited(failure: String?) {
        let waiters = shared.withLock { state in
            state.phase = .exited(failure: failure)
            state.stopping = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: failure) }
    }
}
