// SPDX-License-Identifier: MIT

/// A token bucket over points: a backlog drains at `rate` points per second (with one
/// second of burst), so after hours offline the live topic and the link stay usable.
public struct RateLimiter: Sendable {
    /// Points per second; 0 or less: unlimited.
    public let rate: Double
    private var tokens: Double
    private var last: Double?

    public init(rate: Double) {
        self.rate = rate
        self.tokens = max(rate, 0)
    }

    /// Takes `points` at time `now` (seconds); returns how long to wait before sending more.
    public mutating func take(_ points: Int, now: Double) -> Double {
        guard rate > 0 else { return 0 }
        if let last { tokens = min(rate, tokens + (now - last) * rate) }
        last = now
        tokens -= Double(points)
        return tokens >= 0 ? 0 : -tokens / rate
    }
}
