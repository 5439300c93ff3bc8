// SPDX-License-Identifier: MIT
extension TimeZoneRules {
    /// `time` on the local wall clock: the date, hour, minute and second.
    public func wallClock(_ time: GPSTime) -> (date: CivilDate, hour: Int, minute: Int, second: Int) {
        let (day, rem) = CivilDate.split(seconds: time.wholeSeconds + Int64(offset(time)))
        return (CivilDate(daysSinceEpoch: day), Int(rem / 3600), Int(rem % 3600 / 60), Int(rem % 60))
    }

    /// `2029-11-10 08:00` in this zone (the zone not named: a header or column names it).
    public func dateTime(_ time: GPSTime) -> String {
        let c = wallClock(time)
        return "\(Self.pad(c.date.year, 4))-\(Self.pad(c.date.month, 2))-\(Self.pad(c.date.day, 2)) \(Self.pad(c.hour, 2)):\(Self.pad(c.minute, 2))"
    }

    /// `2029-11-10 08:00 CET`: the zone named, for a time standing alone.
    public func dateTimeWithZone(_ time: GPSTime) -> String { dateTime(time) + " " + abbreviation(time) }

    /// `2029-11-10` in this zone.
    public func date(_ time: GPSTime) -> String { String(dateTime(time).prefix(10)) }

    /// `08:00` in this zone.
    public func clock(_ time: GPSTime) -> String { String(dateTime(time).suffix(5)) }

    /// `2029-11-10T08:00` (`:05` with `seconds`): the value of a `datetime-local` input.
    public func inputValue(_ time: GPSTime, seconds: Bool = false) -> String {
        let c = wallClock(time)
        var s = date(time) + "T" + clock(time)
        if seconds { s += ":" + Self.pad(c.second, 2) }
        return s
    }

    /// The ISO weekday (Monday 1 … Sunday 7) and minute of the day of `time` in this zone.
    public func weekdayAndMinute(_ time: GPSTime) -> (weekday: Int, minute: Int) {
        let c = wallClock(time)
        let w = ((c.date.daysSinceEpoch + 3) % 7 + 7) % 7 + 1
        return (Int(w), c.hour * 60 + c.minute)
    }

    private static func pad(_ v: Int, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
