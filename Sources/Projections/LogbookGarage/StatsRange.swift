// SPDX-License-Identifier: MIT
public import LogbookCore

/// The period `logbook stats --range` covers, and how its economy trend is bucketed.
public struct StatsRange: Sendable, Hashable {
    /// How the trend groups intervals.
    public enum Bucket: String, Sendable { case day, week, month, year }

    /// `week`, `month`, `3months`, `year` or `all`.
    public var name: String
    /// Inclusive start; nil for `all`.
    public var since: GPSTime?
    /// Exclusive end.
    public var until: GPSTime
    public var bucket: Bucket

    /// The names `--range` accepts.
    public static let names = ["week", "month", "3months", "year", "all"]

    /// The rolling period `name` ending at `now`: the last 7, 30, 91 or 365 days, or all.
    public static func named(_ name: String, now: GPSTime) -> StatsRange? {
        let day: Int64 = 86_400 * 1_000_000_000
        let end = GPSTime(nanoseconds: now.nanoseconds + 1)
        switch name {
        case "week": return StatsRange(name: name, since: GPSTime(nanoseconds: now.nanoseconds - 7 * day), until: end, bucket: .day)
        case "month": return StatsRange(name: name, since: GPSTime(nanoseconds: now.nanoseconds - 30 * day), until: end, bucket: .week)
        case "3months": return StatsRange(name: name, since: GPSTime(nanoseconds: now.nanoseconds - 91 * day), until: end, bucket: .week)
        case "year": return StatsRange(name: name, since: GPSTime(nanoseconds: now.nanoseconds - 365 * day), until: end, bucket: .month)
        // No end: a GPS clock ahead of the wall clock (a week rollover) still counts.
        case "all": return StatsRange(name: name, since: nil, until: GPSTime(nanoseconds: .max), bucket: .year)
        default: return nil
        }
    }

    public init(name: String, since: GPSTime?, until: GPSTime, bucket: Bucket) {
        self.name = name
        self.since = since
        self.until = until
        self.bucket = bucket
    }

    public func contains(_ t: GPSTime) -> Bool { (since.map { t >= $0 } ?? true) && t < until }

    /// The bucket label of `t` (UTC): `2026-11-23`, `2026-W48` (ISO week), `2026-11`, `2026`.
    public func label(_ t: GPSTime) -> String {
        let date = CivilDate(daysSinceEpoch: CivilDate.split(seconds: t.wholeSeconds).day)
        switch bucket {
        case .day: return "\(date.year)-\(twoDigits(date.month))-\(twoDigits(date.day))"
        case .month: return "\(date.year)-\(twoDigits(date.month))"
        case .year: return "\(date.year)"
        case .week:
            let (year, week) = date.isoWeek
            return "\(year)-W\(twoDigits(week))"
        }
    }
}

/// `7` → `07`, for dates and times.
func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
