// SPDX-License-Identifier: MIT
internal import Synchronization

/// Limits password guesses: per client address and overall, as token buckets that only
/// failed attempts drain. Once a bucket is empty, attempts are refused (HTTP 429) before the
/// password is even checked, so a correct guess cannot get through either.
package final class LoginLimiter: Sendable {
    /// Failed attempts a client may make in a burst, and seconds per attempt regained.
    package struct Policy: Sendable {
        package var perClientBurst: Double = 5
        package var perClientRefill: Double = 12
        package var globalBurst: Double = 30
        package var globalRefill: Double = 2
        package init() {}
    }

    private struct Bucket {
        var tokens: Double
        var updated: Double
    }

    private struct State {
        var clients: [String: Bucket] = [:]
        var global: Bucket
    }

    private let policy: Policy
    private let state: Mutex<State>

    package init(policy: Policy = Policy()) {
        self.policy = policy
        self.state = Mutex(State(global: Bucket(tokens: policy.globalBurst, updated: WallClock.monotonic())))
    }

    /// Nil when `client` may try a password now; else the seconds until it may.
    package func wait(for client: String, now: Double = WallClock.monotonic()) -> Double? {
        state.withLock { s in
            let g = refilled(s.global, burst: policy.globalBurst, every: policy.globalRefill, now: now)
            let c = s.clients[client].map { refilled($0, burst: policy.perClientBurst, every: policy.perClientRefill, now: now) }
            var wait = 0.0
            if g.tokens < 1 { wait = max(wait, (1 - g.tokens) * policy.globalRefill) }
            if let c, c.tokens < 1 { wait = max(wait, (1 - c.tokens) * policy.perClientRefill) }
            return wait > 0 ? wait.rounded(.up) : nil
        }
    }

    /// Records a failed attempt by `client`.
    package func failed(_ client: String, now: Double = WallClock.monotonic()) {
        state.withLock { s in
            s.global = refilled(s.global, burst: policy.globalBurst, every: policy.globalRefill, now: now)
            s.global.tokens -= 1
            var c = s.clients[client].map { refilled($0, burst: policy.perClientBurst, every: policy.perClientRefill, now: now) }
                ?? Bucket(tokens: policy.perClientBurst, updated: now)
            c.tokens -= 1
            if s.clients.count > 4096 {
                // Full buckets hold nothing worth remembering.
                s.clients = s.clients.filter { refilled($0.value, burst: policy.perClientBurst, every: policy.perClientRefill, now: now).tokens < policy.perClientBurst }
            }
            s.clients[client] = c
        }
    }

    private func refilled(_ b: Bucket, burst: Double, every seconds: Double, now: Double) -> Bucket {
        Bucket(tokens: min(burst, b.tokens + max(0, now - b.updated) / seconds), updated: now)
    }
}
