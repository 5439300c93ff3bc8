// SPDX-License-Identifier: MIT
/// A date of the proleptic Gregorian calendar and its day number since 1970-01-01, both ways
/// (Howard Hinnant's `civil_from_days` and `days_from_civil`).
///
/// The one civil-date arithmetic of the project: ``ISO8601``, the exports' dates, the garage's
/// buckets, report years and service intervals all count days through it.
public struct CivilDate: Sendable, Hashable {
    public var year: Int
    /// 1…12.
    public var month: Int
    /// 1…31.
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `days` days after 1970-01-01 (before it when negative).
    public init(daysSinceEpoch days: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        day = Int(doy - (153 * mp + 2) / 5 + 1)
        month = Int(mp < 10 ? mp + 3 : mp - 9)
        year = Int(yoe + era * 400 + (month <= 2 ? 1 : 0))
    }

    /// Days since 1970-01-01 (negative before it). Out-of-range days and months are not
    /// checked: 31 April counts as 1 May.
    public var daysSinceEpoch: Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = Int64(month > 2 ? month - 3 : month + 9)
        let doy = (153 * mp + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The day number and the second within that day (0…86,399) of `seconds` since the epoch
    /// (rounding towards the past, also before 1970).
    public static func split(seconds: Int64) -> (day: Int64, secondOfDay: Int64) {
        var day = seconds / 86_400
        var second = seconds - day * 86_400
        if second < 0 {
            second += 86_400
            day -= 1
        }
        return (day, second)
    }

    /// The ISO 8601 week-numbering year and week (1…53) of this date; weeks start on Monday and
    /// week 1 holds the year's first Thursday.
    public var isoWeek: (year: Int, week: Int) {
        let days = daysSinceEpoch
        let weekday = ((days + 3) % 7 + 7) % 7  // Monday 0 (1970-01-01 was a Thursday)
        let thursday = days - weekday + 3
        let year = CivilDate(daysSinceEpoch: thursday).year
        let january1 = CivilDate(year: year, month: 1, day: 1).daysSinceEpoch
        return (year, Int((thursday - january1) / 7) + 1)
    }
}
