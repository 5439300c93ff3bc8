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
        let days = Int(t.wholeSeconds >= 0 ? t.wholeSeconds / 86_400 : (t.wholeSeconds - 86_399) / 86_400)
        let (y, m, d) = CivilDate.from(days: days)
        switch bucket {
        case .day: return "\(y)-\(CivilDate.two(m))-\(CivilDate.two(d))"
        case .month: return "\(y)-\(CivilDate.two(m))"
        case .year: return "\(y)"
        case .week:
            let (wy, w) = CivilDate.isoWeek(days: days)
            return "\(wy)-W\(CivilDate.two(w))"
        }
    }
}

/// Proleptic Gregorian dates from days since 1970-01-01 (H. Hinnant's algorithm).
enum CivilDate {
    static func from(days z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// ISO 8601 week-numbering year and week of a day.
    static func isoWeek(days: Int) -> (Int, Int) {
        let weekday = ((days + 3) % 7 + 7) % 7  // Monday 0 (1970-01-01 was a Thursday)
        let thursday = days - weekday + 3
        let (year, _, _) = from(days: thursday)
        let jan1 = Self.days(year: year, month: 1, day: 1)
        return (year, (thursday - jan1) / 7 + 1)
    }

    static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
