// SPDX-License-Identifier: MIT
/// A POSIX `TZ` rule such as `CET-1CEST,M3.5.0,M10.5.0/3` (the footer of a TZif file): a
/// standard time, and optionally a summer time with the month/week/weekday rules of its
/// start and end. Only the `Mm.w.d` form of dates is read (what tzdata writes).
struct PosixZoneRule: Sendable, Hashable {
    struct DateRule: Sendable, Hashable {
        var month: Int, week: Int, weekday: Int
        /// Seconds after local midnight (may be negative or past 24 h).
        var time: Int

        /// The day (since the epoch) of this rule in `year`.
        func day(in year: Int) -> Int64 {
            let first = CivilDate(year: year, month: month, day: 1).daysSinceEpoch
            let firstWeekday = ((first + 4) % 7 + 7) % 7  // Sunday 0 (1970-01-01 was a Thursday)
            var day = first + (Int64(weekday) - firstWeekday + 7) % 7 + Int64(week - 1) * 7
            let nextMonth = month == 12 ? CivilDate(year: year + 1, month: 1, day: 1) : CivilDate(year: year, month: month + 1, day: 1)
            while day >= nextMonth.daysSinceEpoch { day -= 7 }
            return day
        }
    }

    var standard: TimeZoneRules.Kind
    var summer: TimeZoneRules.Kind?
    var start: DateRule?, end: DateRule?

    init?(_ text: String) {
        var s = Substring(text)
        guard let stdName = Self.name(&s), let stdOffset = Self.time(&s) else { return nil }
        standard = .init(offset: -stdOffset, isDST: false, abbreviation: stdName)
        guard !s.isEmpty else { return }
        guard let dstName = Self.name(&s) else { return nil }
        var dstOffset = -stdOffset + 3600
        if s.first != ",", let o = Self.time(&s) { dstOffset = -o }
        summer = .init(offset: dstOffset, isDST: true, abbreviation: dstName)
        guard s.first == ",", case let parts = s.dropFirst().split(separator: ",", omittingEmptySubsequences: false), parts.count == 2,
            let a = Self.dateRule(parts[0]), let b = Self.dateRule(parts[1])
        else { return nil }
        (start, end) = (a, b)
    }

    /// The kind in force at `seconds` since the epoch.
    func kind(atUTC seconds: Int64) -> TimeZoneRules.Kind {
        guard let summer, let start, let end else { return standard }
        let year = CivilDate(daysSinceEpoch: CivilDate.split(seconds: seconds + Int64(standard.offset)).day).year
        // Start is given in standard time, end in summer time.
        let begins = start.day(in: year) * 86_400 + Int64(start.time) - Int64(standard.offset)
        let ends = end.day(in: year) * 86_400 + Int64(end.time) - Int64(summer.offset)
        let inSummer = begins < ends ? (seconds >= begins && seconds < ends) : (seconds >= begins || seconds < ends)
        return inSummer ? summer : standard
    }

    private static func name(_ s: inout Substring) -> String? {
        if s.first == "<" {
            guard let close = s.firstIndex(of: ">") else { return nil }
            let n = String(s[s.index(after: s.startIndex)..<close])
            s = s[s.index(after: close)...]
            return n
        }
        let n = s.prefix { $0.isLetter }
        guard n.count >= 3 else { return nil }
        s = s.dropFirst(n.count)
        return String(n)
    }

    /// `[+-]hh[:mm[:ss]]` in seconds.
    private static func time(_ s: inout Substring) -> Int? {
        var sign = 1
        if s.first == "-" || s.first == "+" {
            sign = s.first == "-" ? -1 : 1
            s = s.dropFirst()
        }
        var total = 0, scale = 3600, any = false
        while scale >= 1 {
            let digits = s.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, let v = Int(digits) else { break }
            any = true
            total += v * scale
            s = s.dropFirst(digits.count)
            guard s.first == ":" else { break }
            s = s.dropFirst()
            scale /= 60
        }
        return any ? sign * total : nil
    }

    private static func dateRule(_ text: Substring) -> DateRule? {
        var s = text
        guard s.first == "M" else { return nil }
        s = s.dropFirst()
        let head = s.prefix { $0 != "/" }
        let nums = head.split(separator: ".").compactMap { Int($0) }
        guard nums.count == 3, (1...12).contains(nums[0]), (1...5).contains(nums[1]), (0...6).contains(nums[2]) else { return nil }
        var time = 7200
        s = s.dropFirst(head.count)
        if s.first == "/" {
            s = s.dropFirst()
            guard let t = Self.time(&s), s.isEmpty else { return nil }
            time = t
        }
        return DateRule(month: nums[0], week: nums[1], weekday: nums[2], time: time)
    }
}
