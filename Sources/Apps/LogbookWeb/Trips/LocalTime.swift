// SPDX-License-Identifier: MIT
internal import LogbookCore
#if canImport(Glibc)
    internal import Glibc
#endif

/// The Pi's time zone (`/etc/localtime`, `TZ`), as the CLI shows trips: pages show local
/// times, the API stays UTC.
enum LocalTime {
    /// Seconds east of UTC at `time`.
    static func offset(_ time: GPSTime) -> Int {
        var t = time_t(time.wholeSeconds)
        var parts = tm()
        guard localtime_r(&t, &parts) != nil else { return 0 }
        return Int(parts.tm_gmtoff)
    }

    /// The zone's abbreviation at `time` (`CET`, `CEST`, `UTC`).
    static func name(_ time: GPSTime) -> String {
        var t = time_t(time.wholeSeconds)
        var parts = tm()
        guard localtime_r(&t, &parts) != nil, let zone = parts.tm_zone else { return "UTC" }
        return String(cString: zone)
    }
}
