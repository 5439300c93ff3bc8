// SPDX-License-Identifier: MIT
/// Dates and times as people type them, the one parser behind every date option of the CLI
/// and every date field of the web forms:
///
/// - a date, `2029-11-10`: local midnight (with `endOfDay`, the next local midnight, so that
///   "until 2029-11-10" includes that day);
/// - a local date and time, `2029-11-10T08:00`, `2029-11-10 08:00:30` (seconds and a fraction
///   optional), in the configured zone (DST edges: ``TimeZoneRules/utc(fromLocal:)``);
/// - ISO 8601 with `Z` or an offset, `2029-11-10T07:00Z`, `2029-11-10T08:00+01:00`, `…+0100`.
public enum LocalTimeInput {
    /// Why a text is not a time; ``message`` reads after the option's name.
    public struct Failure: Error, Sendable, Equatable {
        public let message: String
    }

    /// What the forms look like, for error messages and help texts.
    public static let forms = "a date (2029-11-10), a local time (2029-11-10T08:00) or ISO 8601 with Z or an offset (2029-11-10T08:00+01:00)"

    /// The instant `text` names in `zone`.
    /// - Throws: ``Failure`` saying what was expected.
    public static func parse(_ text: String, zone: TimeZoneRules, endOfDay: Bool = false) throws(Failure) -> GPSTime {
        let bad = Failure(message: "expected \(forms), got \"\(text)\"")
        let u = Array(text.trimmingSpaces.utf8)
        guard u.count >= 10, u[4] == 45, u[7] == 45, let y = digits(u, 0..<4), let mo = digits(u, 5..<7), let d = digits(u, 8..<10) else { throw bad }
        guard (1...12).contains(mo), (1...31).contains(d), CivilDate(daysSinceEpoch: CivilDate(year: y, month: mo, day: d).daysSinceEpoch).day == d
        else { throw Failure(message: "no such date: \"\(text)\"") }
        let day = CivilDate(year: y, month: mo, day: d).daysSinceEpoch
        if u.count == 10 {
            return GPSTime(seconds: zone.utc(fromLocal: (day + (endOfDay ? 1 : 0)) * 86_400))
        }
        // The time: HH:MM[:SS[.fff]], then maybe a zone.
        guard u.count >= 16, u[10] == 84 || u[10] == 116 || u[10] == 32, u[13] == 58, let h = digits(u, 11..<13), let mi = digits(u, 14..<16)
        else { throw bad }
        var i = 16, s = 0, nanos: Int64 = 0
        if i < u.count, u[i] == 58 {
            guard let sec = digits(u, (i + 1)..<(i + 3)) else { throw bad }
            s = sec
            i += 3
            if i < u.count, u[i] == 46 || u[i] == 44 {
                var scale: Int64 = 100_000_000, n = 0
                i += 1
                while i < u.count, u[i] >= 48, u[i] <= 57 {
                    nanos += Int64(u[i] - 48) * scale
                    scale /= 10
                    n += 1
                    i += 1
                }
                guard n > 0 else { throw bad }
            }
        }
        guard h < 24, mi < 60, s < 60 else { throw Failure(message: "no such time of day: \"\(text)\"") }
        let local = day * 86_400 + Int64(h * 3600 + mi * 60 + s)
        if i == u.count {
            return GPSTime(nanoseconds: zone.utc(fromLocal: local) * 1_000_000_000 + nanos)
        }
        guard let offset = zoneOffset(u[i...]) else { throw bad }
        return GPSTime(nanoseconds: (local - Int64(offset)) * 1_000_000_000 + nanos)
    }

    /// `Z`, `±HH`, `±HH:MM` or `±HHMM` in seconds east of UTC.
    private static func zoneOffset(_ z: ArraySlice<UInt8>) -> Int? {
        let z = Array(z)
        if z == [90] || z == [122] { return 0 }
        guard let sign = z.first, sign == 43 || sign == 45 else { return nil }
        let rest = Array(z.dropFirst())
        let hm: (Int?, Int?)
        switch rest.count {
        case 2: hm = (digits(rest, 0..<2), 0)
        case 4: hm = (digits(rest, 0..<2), digits(rest, 2..<4))
        case 5 where rest[2] == 58: hm = (digits(rest, 0..<2), digits(rest, 3..<5))
        default: return nil
        }
        guard let h = hm.0, let m = hm.1, h < 24, m < 60 else { return nil }
        return (h * 3600 + m * 60) * (sign == 45 ? -1 : 1)
    }

    private static func digits(_ u: [UInt8], _ r: Range<Int>) -> Int? {
        guard r.upperBound <= u.count else { return nil }
        var v = 0
        for i in r {
            guard u[i] >= 48, u[i] <= 57 else { return nil }
            v = v * 10 + Int(u[i] - 48)
        }
        return v
    }
}

extension String {
    fileprivate var trimmingSpaces: Substring {
        let s = drop { $0 == " " }
        return s.dropLast(s.reversed().prefix { $0 == " " }.count)
    }
}
