// SPDX-License-Identifier: MIT
public import LogbookCore

/// A tiny NMEA 0183 reader: RMC and GGA sentences to ``Fix`` values, for feeding recorded
/// receiver logs to unit tests (gpsd is not involved).
///
/// One fix per epoch (the UTC time of day of the sentences): RMC gives date, status,
/// position, speed and track; a GGA of the same epoch adds altitude, satellites and mode
/// 3D. Sentences with a bad checksum are skipped. An RMC with status `V` gives a no-fix.
public enum NMEAReader {
    /// Parses a whole log. `ephPerHDOP`, if set, turns HDOP into an eph estimate: GGA's for
    /// its epoch, else the latest GSA's (gpsd takes the DOPs from GSA, which many receivers
    /// send every second while GGA comes less often).
    public static func fixes(in text: String, ephPerHDOP: Double? = nil) -> [Fix] {
        var result: [Fix] = []
        var pending: Fix?
        var pendingEpoch = ""
        var date: (d: Int, m: Int, y: Int)?
        var gsaHDOP: Double?
        func finish(_ fix: Fix) {
            var fix = fix
            if fix.eph == nil, let k = ephPerHDOP, let h = gsaHDOP { fix.eph = h * k }
            result.append(fix)
        }
        for rawLine in text.split(whereSeparator: \.isNewline) {  // "\r\n" is one Character
            guard let fields = verifiedFields(Substring(rawLine)), fields.count > 6 else { continue }
            let type = fields[0].suffix(3)
            if type == "GSA", fields.count > 16 {
                gsaHDOP = Double(fields[16])
                continue
            }
            guard type == "RMC" || type == "GGA" else { continue }
            let epoch = String(fields[1])
            if epoch != pendingEpoch, let done = pending {
                finish(done)
                pending = nil
            }
            pendingEpoch = epoch
            if type == "RMC", fields.count > 9 {
                if let parsed = parseDate(fields[9]) { date = parsed }
                guard let date, let time = gpsTime(epoch, date) else { continue }
                var fix = pending ?? Fix(time: time, mode: .noFix, latitude: 0, longitude: 0)
                fix.time = time
                if fields[2] == "A", let lat = coordinate(fields[3], fields[4]),
                    let lon = coordinate(fields[5], fields[6])
                {
                    fix.latitude = lat
                    fix.longitude = lon
                    if fix.mode == .noFix { fix.mode = .twoD }
                    fix.speed = Double(fields[7]).map { $0 * 1852 / 3600 }
                    fix.track = Double(fields[8])
                } else {
                    fix.mode = .noFix
                }
                pending = fix
            } else if type == "GGA", fields.count > 9 {
                guard let date, let time = gpsTime(epoch, date), let quality = Int(fields[6]), quality > 0
                else { continue }
                var fix = pending ?? Fix(time: time, mode: .twoD, latitude: 0, longitude: 0)
                if let lat = coordinate(fields[2], fields[3]), let lon = coordinate(fields[4], fields[5]) {
                    fix.latitude = lat
                    fix.longitude = lon
                }
                fix.satellitesUsed = Int(fields[7])
                if let hdop = Double(fields[8]), let k = ephPerHDOP { fix.eph = hdop * k }
                if let alt = Double(fields[9]) {
                    fix.altitudeMSL = alt
                    fix.mode = .threeD
                }
                pending = fix
            }
        }
        if let done = pending { finish(done) }
        return result
    }

    /// The comma-separated fields of a sentence whose checksum is right (or absent).
    static func verifiedFields(_ line: Substring) -> [Substring]? {
        guard let dollar = line.firstIndex(of: "$") else { return nil }
        var body = line[line.index(after: dollar)...]
        if let star = body.firstIndex(of: "*") {
            let sum = body[body.index(after: star)...].prefix(2)
            body = body[..<star]
            guard let expected = UInt8(sum, radix: 16) else { return nil }
            guard body.utf8.reduce(UInt8(0), ^) == expected else { return nil }
        }
        return body.split(separator: ",", omittingEmptySubsequences: false)
    }

    /// `ddmm.mmmm` + hemisphere to signed degrees.
    static func coordinate(_ value: Substring, _ hemisphere: Substring) -> Double? {
        guard let v = Double(value), v.isFinite else { return nil }
        let degrees = (v / 100).rounded(.towardZero)
        let result = degrees + (v - degrees * 100) / 60
        return hemisphere == "S" || hemisphere == "W" ? -result : result
    }

    static func parseDate(_ field: Substring) -> (d: Int, m: Int, y: Int)? {
        guard field.count == 6, let v = Int(field) else { return nil }
        return (v / 10_000, v / 100 % 100, 2000 + v % 100)
    }

    static func gpsTime(_ epoch: String, _ date: (d: Int, m: Int, y: Int)) -> GPSTime? {
        guard epoch.count >= 6, let hms = Double(epoch) else { return nil }
        let whole = Int(hms)
        let h = whole / 10_000, m = whole / 100 % 100, s = whole % 100
        let frac = hms - Double(whole)
        let iso = "\(pad(date.y, 4))-\(pad(date.m, 2))-\(pad(date.d, 2))T\(pad(h, 2)):\(pad(m, 2)):\(pad(s, 2))Z"
        guard let t = ISO8601.parse(iso) else { return nil }
        return GPSTime(nanoseconds: t.nanoseconds + Int64((frac * 1000).rounded()) * 1_000_000)
    }

    private static func pad(_ v: Int, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
