// SPDX-License-Identifier: MIT
#if canImport(Glibc)
    internal import Glibc
#endif

/// Clock readings without Foundation.
package enum WallClock {
    /// `CLOCK_REALTIME` in seconds since 1970 (cookie expiry, `updated_at` ages).
    package static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_REALTIME, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// `CLOCK_MONOTONIC` in seconds (rate limits, timeouts: immune to clock steps).
    package static func monotonic() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
