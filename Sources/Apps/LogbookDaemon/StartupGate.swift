// SPDX-License-Identifier: MIT
internal import Synchronization

/// A one-time "it is up" signal between services: the pipeline waits for the control
/// socket to listen before it sends READY=1, so `systemctl start` returning means
/// `logbook status` works.
final class StartupGate: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func open() {
        let waiters = state.withLock { s in
            s.open = true
            defer { s.waiters = [] }
            return s.waiters
        }
        waiters.forEach { $0.resume() }
    }

    /// Returns once the gate is open, or after `limit` (startup must not hang on it).
    func wait(upTo limit: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [self] in
                await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                    let resumeNow = state.withLock { s in
                        if s.open { return true }
                        s.waiters.append(c)
                        return false
                    }
                    if resumeNow { c.resume() }
                }
            }
            group.addTask { try? await Task.sleep(for: limit) }
            await group.next()
            group.cancelAll()
            // The sleeping child ends on cancel; a still-waiting one is released by open().
            open()
        }
    }
}
