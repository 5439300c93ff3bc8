// SPDX-License-Identifier: MIT
#if canImport(Glibc)
    internal import Glibc
#endif

/// Box handing a closure to a new pthread.
private final class ThreadBody {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}

/// Starts a detached OS thread running `body`; false if it could not start. (Unnamed: naming
/// needs pthread_setname_np, which only the C adapter modules may reach.)
///
/// For blocking work (the control socket's `watch`) that must stay off the Swift
/// concurrency pool.
func startThread(_ body: @escaping @Sendable () -> Void) -> Bool {
    let box = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    var thread = pthread_t()
    let rc = pthread_create(
        &thread, nil,
        { arg in
            guard let arg else { return nil }
            let body = Unmanaged<ThreadBody>.fromOpaque(arg).takeRetainedValue()
            body.run()
            return nil
        }, box)
    guard rc == 0 else {
        Unmanaged<ThreadBody>.fromOpaque(box).release()
        return false
    }
    pthread_detach(thread)
    return true
}
