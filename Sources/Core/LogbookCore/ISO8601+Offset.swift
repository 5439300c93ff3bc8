// SPDX-License-Identifier: MIT
extension ISO8601 {
    /// Parses an ISO 8601 date-time with a `Z` or a numeric UTC offset (`+01:00`, `-0400`)
    /// and any number of fraction digits up to nine, as files from other tools write it
    /// (Google's `2014-07-15T18:00:00.000-04:00`); nil for anything else. A time without a
    /// zone is not accepted: it could be local time.
    public static func parseWithOffset(_ text: String) -> GPSTime? {
        if let t = parse(text) { return t }
        let u = Array(text.utf8)
        guard u.count >= 20, u[4] == 45, u[7] == 45, u[10] == 84 || u[10] == 32, u[13] == 58, u[16] == 58 else { return nil }
        // The zone: Z, or ±HH:MM / ±HHMM / ±HH at the end.
        var zoneStart = u.count
        var offsetSeconds = 0
        if u.last == 90 {
            zoneStart = u.count - 1
        } else {
            guard let sign = u[19...].lastIndex(where: { $0 == 43 || $0 == 45 }) else { return nil }
            let digits = u[(sign + 1)...].filter { $0 != 58 }
            guard digits.count == 2 || digits.count == 4, digits.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
            let h = Int(digits[digits.startIndex] - 48) * 10 + Int(digits[digits.startIndex + 1] - 48)
            let m = digits.count == 4 ? Int(digits[digits.startIndex + 2] - 48) * 10 + Int(digits[digits.startIndex + 3] - 48) : 0
            guard h < 24, m < 60 else { return nil }
            offsetSeconds = (h * 3600 + m * 60) * (u[sign] == 45 ? -1 : 1)
            zoneStart = sign
        }
        var core = Array(u[0..<zoneStart])
        core[10] = 84
        // Fractions beyond nine digits are cut (nanosecond resolution).
        if core.count > 20, core[19] == 46, core.count - 20 > 9 { core.removeSubrange(29...) }
        guard let t = parse(String(decoding: core + [90], as: UTF8.self)) else { return nil }
        return GPSTime(nanoseconds: t.nanoseconds - Int64(offsetSeconds) * 1_000_000_000)
    }
}
