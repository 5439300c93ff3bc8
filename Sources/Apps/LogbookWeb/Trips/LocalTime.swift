// SPDX-License-Identifier: MIT
internal import LogbookCore
internal import LogbookExport
internal import Synchronization

/// The configured time zone (`[units] time_zone`, else the Pi's), as the CLI shows trips:
/// pages show local times and read form times in it, the API stays UTC. ``WebApp`` sets it
/// from its configuration.
enum LocalTime {
    private static let current = Mutex<TimeZoneRules>(.utc)

    /// The zone.
    static var zone: TimeZoneRules {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }

    /// Seconds east of UTC at `time`.
    static func offset(_ time: GPSTime) -> Int { zone.offset(time) }

    /// The zone's abbreviation at `time` (`CET`, `CEST`, `UTC`).
    static func name(_ time: GPSTime) -> String { zone.abbreviation(time) }

    /// The date and time of `time` in the zone, as the pages show them.
    static func text(_ time: GPSTime) -> String { TripText.dateTime(time, utcOffset: offset(time)) }

    /// `2026-11-23T10:30` (with `:05` when `seconds`) in the zone: the value of a
    /// `datetime-local` input.
    static func inputValue(_ time: GPSTime, seconds: Bool = false) -> String { zone.inputValue(time, seconds: seconds) }

    /// A form's time as `logbook` reads `--at` (``LocalTimeInput``: a date, a local time — what
    /// a `datetime-local` input sends — or ISO 8601 with Z or an offset).
    static func parse(_ text: String) throws(LocalTimeInput.Failure) -> GPSTime {
        try LocalTimeInput.parse(text, zone: zone)
    }
}
