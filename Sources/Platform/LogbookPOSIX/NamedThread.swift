// SPDX-License-Identifier: MIT
internal import CLogbookPOSIX
#if canImport(Glibc)
    internal import Glibc
#endif

/// A detached OS thread with a name (`ps -L`, `top -H`, `/proc/PID/task/*/comm`).
///
/// For work that blocks in system calls (`fdatasync`, `poll`, libgps's `pselect`, libpq) and so
/// must never run on the Swift concurrency pool. A plain pthread, not Foundation's `Thread`,
/// keeps Foundation out of the daemon.
public struct NamedThread: Sendable, Equatable {
    private let id: pthread_t

    /// Starts a detached thread named `name` (at most 15 bytes are kept) running `body`.
    ///
    /// - Throws: ``SystemError`` when `pthread_create` fails (`EAGAIN`: out of threads or memory).
    @discardableResult
    public static func start(name: String, body: @escaping @Sendable () -> Void) throws(SystemError) -> NamedThread {
        let shortName = String(decoding: name.utf8.prefix(15), as: UTF8.self)
        let box = Unmanaged.passRetained(Body(name: shortName, run: body)).toOpaque()
        var thread = pthread_t()
        let rc = pthread_create(
            &thread, nil,
            { argument in
                guard let argument else { return nil }
                let body = Unmanaged<Body>.fromOpaque(argument).takeRetainedValue()
                _ = clp_set_thread_name(body.name)
                body.run()
                return nil
            }, box)
        guard rc == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            throw SystemError("pthread_create", path: shortName, code: rc)
        }
        pthread_detach(thread)
        return NamedThread(id: thread)
    }

    /// True when called on this thread (a callback asking its own loop to stop must not wait
    /// for it).
    public var isCurrent: Bool { pthread_equal(pthread_self(), id) != 0 }

    public static func == (a: NamedThread, b: NamedThread) -> Bool { pthread_equal(a.id, b.id) != 0 }

    /// What the new thread runs, handed over through `pthread_create`'s argument.
    private final class Body {
        let name: String
        let run: @Sendable () -> Void
        init(name: String, run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }
    }
}
