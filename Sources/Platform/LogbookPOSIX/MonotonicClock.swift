// SPDX-License-Identifier: MIT
#if canImport(Glibc)
    internal import Glibc
#endif

/// `CLOCK_MONOTONIC`: time since boot that never steps (GPS, NTP or a person setting the wall
/// clock does not move it). Timeouts, deadlines, rate limits, heartbeats and the journal's
/// per-boot record order run on it; ``ConditionLock``'s timed waits use the same clock.
public enum MonotonicClock {
    /// Nanoseconds since boot.
    public static func nanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
    }

    /// Seconds since boot.
    public static func seconds() -> Double { Double(nanoseconds()) / 1e9 }
}
