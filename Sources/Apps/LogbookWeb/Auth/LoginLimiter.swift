// SPDX-License-Identifier: MIT
internal import Synchronization
internal import LogbookPOSIX
#if canImport(Glibc)
    internal import Glibc  // exp2
#endif

/// Decides when a password may be checked (a login, or a bearer token): the defence against
/// guessing that nobody on the network can turn against the owner.
///
/// - **Per address** (an IPv6 address counts by its /64): a token bucket of
///   ``Policy/perClientBurst`` attempts, one regained every ``Policy/perClientRefill`` seconds.
///   An attempt takes a token, a right password gives it back; an address with none left is
///   refused at once (429), before any check. Only its own wrong guesses empty it.
/// - **Overall**: at most ``Policy/checksPerSecond`` checks a second, however many addresses
///   take part. An attempt beyond that rate waits for a slot instead of being refused, and the
///   next slot goes to the waiting attempt whose address has the fewest recent wrong guesses
///   (halved every ``Policy/failureHalfLife``; an address's attempts already waiting count as
///   well), the earliest first among equals. The owner — no wrong guesses, or a typo — is
///   served before every address that has been guessing; to keep the owner waiting, an
///   attacker needs a stream of addresses never seen before. At most ``Policy/maxWaiting``
///   attempts wait; beyond, the one with the most recent wrong guesses is refused.
package final class LoginLimiter: Sendable {
    package struct Policy: Sendable {
        package var perClientBurst: Double = 5
        package var perClientRefill: Double = 12
        package var checksPerSecond: Double = 10
        package var maxWaiting = 256
        package var failureHalfLife: Double = 3600
        /// Addresses remembered (the least recently seen are forgotten beyond).
        package var maxClients = 100_000
        package init() {}
    }

    private struct Client {
        var tokens: Double
        var failures: Double
        var updated: Double
        var waiting = 0
    }

    private struct Waiter {
        let client: String
        let priority: Double
        let order: UInt64
        let continuation: CheckedContinuation<Double?, Never>
    }

    private struct State {
        var clients: [String: Client] = [:]
        var waiting: [Waiter] = []
        var nextSlot = 0.0
        var dispatching = false
        var order: UInt64 = 0
    }

    private let policy: Policy
    private let clock: @Sendable () -> Double
    private let state = Mutex(State())

    package init(policy: Policy = Policy(), clock: @escaping @Sendable () -> Double = { MonotonicClock.seconds() }) {
        self.policy = policy
        self.clock = clock
    }

    /// Waits for a turn to check a password for `client` (its address). Nil: check it now;
    /// then report ``succeeded(_:)`` or ``failed(_:)``. Else the attempt is refused: the
    /// seconds after which this address may try again.
    package func admit(_ client: String) async -> Double? {
        let key = ClientAddress.key(client)
        return await withCheckedContinuation { (continuation: CheckedContinuation<Double?, Never>) in
            var resumeNow: Double?? = nil
            var evicted: Waiter?
            var startDispatcher = false
            state.withLock { s in
                let now = clock()
                var c = refreshed(s.clients[key], now: now)
                guard c.tokens >= 1 else {
                    resumeNow = .some(((1 - c.tokens) * policy.perClientRefill).rounded(.up))
                    return
                }
                c.tokens -= 1
                defer { s.clients[key] = c }
                if s.waiting.isEmpty, now >= s.nextSlot {
                    s.nextSlot = now + 1 / policy.checksPerSecond
                    resumeNow = .some(nil)
                    return
                }
                let priority = c.failures + Double(c.waiting)
                if s.waiting.count >= policy.maxWaiting {
                    guard let worst = s.waiting.indices.max(by: { Self.before(s.waiting[$1], s.waiting[$0]) }),
                        priority < s.waiting[worst].priority
                    else {
                        c.tokens += 1
                        resumeNow = .some(Double(s.waiting.count) / policy.checksPerSecond)
                        return
                    }
                    evicted = s.waiting.remove(at: worst)
                    if let e = evicted, e.client != key { s.clients[e.client]?.waiting -= 1 } else { c.waiting -= 1 }
                }
                s.order += 1
                c.waiting += 1
                s.waiting.append(Waiter(client: key, priority: priority, order: s.order, continuation: continuation))
                if !s.dispatching {
                    s.dispatching = true
                    startDispatcher = true
                }
                forgetClients(&s, now: now)
            }
            if let resumeNow { continuation.resume(returning: resumeNow) }
            evicted?.continuation.resume(returning: Double(policy.maxWaiting) / policy.checksPerSecond)
            if startDispatcher { Task { await dispatch() } }
        }
    }

    /// The password was right: the attempt's token comes back, the address's record is clear.
    package func succeeded(_ client: String) {
        let key = ClientAddress.key(client)
        state.withLock { s in
            guard var c = s.clients[key] else { return }
            c.tokens = min(policy.perClientBurst, c.tokens + 1)
            c.failures = 0
            s.clients[key] = c
        }
    }

    /// The password was wrong: the address's token stays spent and its record grows.
    package func failed(_ client: String) {
        let key = ClientAddress.key(client)
        state.withLock { s in
            let now = clock()
            var c = refreshed(s.clients[key], now: now)
            c.failures += 1
            s.clients[key] = c
        }
    }

    /// Hands out slots at the overall rate until nobody waits.
    private func dispatch() async {
        while true {
            let (next, pause): (Waiter?, Double?) = state.withLock { s in
                guard !s.waiting.isEmpty else {
                    s.dispatching = false
                    return (nil, nil)
                }
                let now = clock()
                guard now >= s.nextSlot else { return (nil, s.nextSlot - now) }
                let best = s.waiting.indices.min { Self.before(s.waiting[$0], s.waiting[$1]) } ?? 0
                let w = s.waiting.remove(at: best)
                s.clients[w.client]?.waiting -= 1
                s.nextSlot = now + 1 / policy.checksPerSecond
                return (w, nil)
            }
            if let next {
                next.continuation.resume(returning: nil)
            } else if let pause {
                try? await Task.sleep(for: .milliseconds(Int64((pause * 1000).rounded(.up))))
            } else {
                return
            }
        }
    }

    /// Whether `a` goes before `b`: fewer recent wrong guesses, then earlier.
    private static func before(_ a: Waiter, _ b: Waiter) -> Bool {
        a.priority != b.priority ? a.priority < b.priority : a.order < b.order
    }

    /// The address's record at `now`: tokens regained, wrong guesses decayed.
    private func refreshed(_ client: Client?, now: Double) -> Client {
        guard var c = client else { return Client(tokens: policy.perClientBurst, failures: 0, updated: now) }
        let elapsed = max(0, now - c.updated)
        c.tokens = min(policy.perClientBurst, c.tokens + elapsed / policy.perClientRefill)
        c.failures *= exp2(-elapsed / policy.failureHalfLife)
        c.updated = now
        return c
    }

    /// Keeps the table bounded: first what holds nothing (all tokens, no wrong guess worth
    /// remembering), then the least recently seen.
    private func forgetClients(_ s: inout State, now: Double) {
        guard s.clients.count > policy.maxClients else { return }
        s.clients = s.clients.filter { _, c in
            let r = refreshed(c, now: now)
            return c.waiting > 0 || r.tokens < policy.perClientBurst || r.failures >= 0.5
        }
        guard s.clients.count > policy.maxClients else { return }
        let oldest = s.clients.filter { $0.value.waiting == 0 }.sorted { $0.value.updated < $1.value.updated }
        for (key, _) in oldest.prefix(s.clients.count - policy.maxClients) { s.clients[key] = nil }
    }
}
