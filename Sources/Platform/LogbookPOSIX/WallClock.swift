// SPDX-License-Identifier: MIT
#if canImport(Glibc)
    internal import Glibc
#endif

/// `CLOCK_REALTIME`: the system's idea of the date, which may be wrong on a Pi until GPS or NTP
/// sets it, and may step. For timestamps people read, never for measuring intervals
/// (``MonotonicClock`` is for those).
public enum WallClock {
    /// Nanoseconds since 1970-01-01 00:00 UTC.
    public static func nanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) &* 1_000_000_000 &+ Int64(now.tv_nsec)
    }

    /// Seconds since 1970-01-01 00:00 UTC.
    public static func seconds() -> Double { Double(nanoseconds()) / 1e9 }
}
