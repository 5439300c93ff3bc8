// SPDX-License-Identifier: MIT
internal import LogbookCore
internal import LogbookExport
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

    /// The date and time of `time` in the Pi's zone, as the pages show them.
    static func text(_ time: GPSTime) -> String { TripText.dateTime(time, utcOffset: offset(time)) }

    /// `2026-11-23T10:30` (with `:05` when `seconds`) in the Pi's zone: the value of a
    /// `datetime-local` input.
    static func inputValue(_ time: GPSTime, seconds: Bool = false) -> String {
        let local = GPSTime(seconds: time.wholeSeconds + Int64(offset(time)))
        return String(ISO8601.format(local).prefix(seconds ? 19 : 16))
    }

    /// An ISO 8601 time with its zone, or `YYYY-MM-DDTHH:MM[:SS]` (what a `datetime-local`
    /// input sends) in the Pi's zone, as `logbook` reads `--at`; nil when it is neither.
    static func parse(_ text: String) -> GPSTime? {
        if let t = ISO8601.parse(text) { return t }
        let parts = text.split(whereSeparator: { "-T:".contains($0) }).map(String.init)
        let numbers = parts.compactMap { Int32($0) }
        guard numbers.count == parts.count, numbers.count == 5 || numbers.count == 6, text.count >= 16 else { return nil }
        var c = tm()
        c.tm_year = numbers[0] - 1900
        c.tm_mon = numbers[1] - 1
        c.tm_mday = numbers[2]
        c.tm_hour = numbers[3]
        c.tm_min = numbers[4]
        c.tm_sec = numbers.count > 5 ? numbers[5] : 0
        c.tm_isdst = -1
        guard (1...12).contains(numbers[1]), (1...31).contains(numbers[2]), (0..<24).contains(c.tm_hour), (0..<60).contains(c.tm_min),
            (0..<61).contains(c.tm_sec)
        else { return nil }
        var check = c
        guard mktime(&check) != -1, check.tm_mday == c.tm_mday, check.tm_mon == c.tm_mon else { return nil }
        return GPSTime(seconds: Int64(mktime(&c)))
    }
}
