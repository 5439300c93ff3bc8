// SPDX-License-Identifier: MIT
/// A point on a monotonic clock: nanoseconds since an arbitrary origin.
///
/// The trip engine measures durations and runs its timers on this clock, never on GPS or wall
/// time, which can jump (a Pi has no RTC; recorded logs go backwards). The daemon maps
/// `ContinuousClock` / `CLOCK_MONOTONIC` onto it; tests drive it by hand.
public struct MonotonicInstant: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Nanoseconds since the clock's origin.
    public var nanoseconds: UInt64

    /// Creates an instant from nanoseconds since the origin.
    public init(nanoseconds: UInt64) { self.nanoseconds = nanoseconds }

    /// Creates an instant from (non-negative) seconds since the origin.
    public init(seconds: Double) { self.nanoseconds = Self.nanos(seconds) }

    /// The clock's origin.
    public static let zero = MonotonicInstant(nanoseconds: 0)

    /// Seconds since the origin.
    public var seconds: Double { Double(nanoseconds) / 1e9 }

    /// This instant moved by `seconds` (negative moves back, saturating at the origin).
    public func advanced(bySeconds seconds: Double) -> MonotonicInstant {
        if seconds >= 0 {
            let (sum, overflow) = nanoseconds.addingReportingOverflow(Self.nanos(seconds))
            return MonotonicInstant(nanoseconds: overflow ? .max : sum)
        }
        let back = Self.nanos(-seconds)
        return MonotonicInstant(nanoseconds: back >= nanoseconds ? 0 : nanoseconds - back)
    }

    /// The signed interval `self - other` in seconds.
    public func seconds(since other: MonotonicInstant) -> Double {
        nanoseconds >= other.nanoseconds
            ? Double(nanoseconds - other.nanoseconds) / 1e9
            : -Double(other.nanoseconds - nanoseconds) / 1e9
    }

    /// Orders instants by their position on the clock.
    public static func < (a: MonotonicInstant, b: MonotonicInstant) -> Bool {
        a.nanoseconds < b.nanoseconds
    }

    /// Seconds since the origin, e.g. `12.5s`.
    public var description: String { "\(seconds)s" }

    /// Non-negative finite seconds to nanoseconds, saturating (NaN and negatives give 0).
    private static func nanos(_ seconds: Double) -> UInt64 {
        guard seconds.isFinite, seconds > 0 else { return seconds == .infinity ? .max : 0 }
        let ns = (seconds * 1e9).rounded()
        return ns >= 1.8e19 ? .max : UInt64(ns)
    }
}
