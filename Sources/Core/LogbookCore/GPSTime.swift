// SPDX-License-Identifier: MIT
/// A GNSS receiver timestamp: UTC nanoseconds since the Unix epoch, as gpsd reports it.
///
/// Points and journal records carry this time rather than the wall clock, which on a Pi
/// without an RTC may be wrong until GPS or NTP sets it. Int64 nanoseconds reach year 2262.
public struct GPSTime: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Nanoseconds since 1970-01-01T00:00:00Z.
    public var nanoseconds: Int64

    /// Creates a time from nanoseconds since the Unix epoch.
    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// Creates a time from whole seconds and a nanosecond part (a C `timespec`).
    public init(seconds: Int64, nanoseconds: Int64 = 0) {
        self.nanoseconds = seconds &* 1_000_000_000 &+ nanoseconds
    }

    /// Seconds since the epoch as a floating-point value.
    public var seconds: Double { Double(nanoseconds) / 1e9 }

    /// Whole seconds since the epoch (rounded towards minus infinity).
    public var wholeSeconds: Int64 {
        nanoseconds >= 0 ? nanoseconds / 1_000_000_000 : (nanoseconds - 999_999_999) / 1_000_000_000
    }

    public static func < (a: GPSTime, b: GPSTime) -> Bool { a.nanoseconds < b.nanoseconds }

    /// The signed interval `self - other` in seconds.
    public func seconds(since other: GPSTime) -> Double { Double(nanoseconds &- other.nanoseconds) / 1e9 }

    /// ISO 8601 UTC with millisecond precision when needed, e.g. `2010-04-03T11:22:33Z`.
    public var description: String { ISO8601.format(self) }

    public init(from decoder: any Decoder) throws {
        nanoseconds = try decoder.singleValueContainer().decode(Int64.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(nanoseconds)
    }
}
