// SPDX-License-Identifier: MIT
public import LogbookCore

/// A monotonic clock that moves only when a test says so.
public struct ManualClock: Sendable, Hashable {
    /// The current instant.
    public private(set) var now: MonotonicInstant

    /// Creates a clock at `start` (default: 1000 s after the origin, so back-dating never
    /// saturates at zero).
    public init(start: MonotonicInstant = MonotonicInstant(seconds: 1000)) { self.now = start }

    /// Moves the clock forward by `seconds` and returns the new instant.
    @discardableResult
    public mutating func advance(by seconds: Double) -> MonotonicInstant {
        now = now.advanced(bySeconds: seconds)
        return now
    }
}
