// SPDX-License-Identifier: MIT
/// Dependency-free ISO 8601 formatting and parsing for UTC timestamps.
///
/// The core stays free of Foundation; civil-from-days is Howard Hinnant's algorithm.
public enum ISO8601 {
    /// Formats `time` as `YYYY-MM-DDTHH:MM:SS[.mmm]Z`.
    public static func format(_ time: GPSTime) -> String {
        let secs = time.wholeSeconds
        let millis = Int((time.nanoseconds - secs * 1_000_000_000) / 1_000_000)
        var days = secs / 86_400
        var rem = secs - days * 86_400
        if rem < 0 { rem += 86_400; days -= 1 }
        let (y, m, d) = civil(fromDays: days)
        let hh = Int(rem / 3600), mm = Int(rem % 3600 / 60), ss = Int(rem % 60)
        var s = "\(pad(Int(y), 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(hh, 2)):\(pad(mm, 2)):\(pad(ss, 2))"
        if millis != 0 { s += ".\(pad(millis, 3))" }
        return s + "Z"
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fff]Z`; returns nil for anything else.
    public static func parse(_ text: String) -> GPSTime? {
        let u = Array(text.utf8)
        guard u.count >= 20, u[4] == 45, u[7] == 45, u[10] == 84, u[13] == 58, u[16] == 58,
            u.last == 90
        else { return nil }
        func num(_ r: Range<Int>) -> Int? {
            var v = 0
            for i in r {
                guard u[i] >= 48, u[i] <= 57 else { return nil }
                v = v * 10 + Int(u[i] - 48)
            }
            return v
        }
        guard let y = num(0..<4), let mo = num(5..<7), let d = num(8..<10), let h = num(11..<13),
            let mi = num(14..<16), let s = num(17..<19), (1...12).contains(mo), (1...31).contains(d),
            h < 24, mi < 60, s < 61
        else { return nil }
        var nanos: Int64 = 0
        if u.count > 20 {
            guard u[19] == 46, let frac = num(20..<(u.count - 1)) else { return nil }
            let digits = u.count - 21
            guard digits >= 1, digits <= 9 else { return nil }
            var scale: Int64 = 1
            for _ in digits..<9 { scale *= 10 }
            nanos = Int64(frac) * scale
        } else if u.count != 20 {
            return nil
        }
        let days = daysFromCivil(Int64(y), mo, d)
        let secs = days * 86_400 + Int64(h * 3600 + mi * 60 + s)
        return GPSTime(seconds: secs, nanoseconds: nanos)
    }

    static func civil(fromDays z0: Int64) -> (Int64, Int, Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = Int(doy - (153 * mp + 2) / 5 + 1)
        let m = Int(mp < 10 ? mp + 3 : mp - 9)
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    static func daysFromCivil(_ y0: Int64, _ m: Int, _ d: Int) -> Int64 {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = Int64(m > 2 ? m - 3 : m + 9)
        let doy = (153 * mp + 2) / 5 + Int64(d) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func pad(_ v: Int, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
