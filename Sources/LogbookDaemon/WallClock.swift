// SPDX-License-Identifier: MIT
internal import LogbookCore
#if canImport(Glibc)
    internal import Glibc
#endif

/// The system's wall clock (may be wrong on a Pi until GPS or NTP sets it).
func wallClockNow() -> GPSTime {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return GPSTime(seconds: Int64(ts.tv_sec), nanoseconds: Int64(ts.tv_nsec))
}
