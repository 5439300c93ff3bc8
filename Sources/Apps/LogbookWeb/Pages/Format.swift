// SPDX-License-Identifier: MIT
internal import LogbookCore

/// Numbers as the pages show them. `app.js` formats live updates with the same rules.
package struct Format: Sendable {
    package var imperial: Bool

    package init(imperial: Bool) { self.imperial = imperial }

    /// The unit system (its conversions and unit names).
    var units: UnitSystem { imperial ? .imperial : .metric }

    /// `12.35 km` below 100 km, `242.7 km` above (miles when imperial).
    package func distance(_ metres: Double) -> (value: String, unit: String) {
        let v = imperial ? metres / 1609.344 : metres / 1000
        return (Self.fixed(v, digits: v < 100 ? 2 : 1), imperial ? "mi" : "km")
    }

    package func distanceText(_ metres: Double) -> String {
        let d = distance(metres)
        return "\(d.value) \(d.unit)"
    }

    /// `87 km/h`.
    package func speed(_ mps: Double) -> (value: String, unit: String) {
        let v = imperial ? mps * 2.236_936 : mps * 3.6
        return (Self.fixed(v, digits: 0), imperial ? "mph" : "km/h")
    }

    package func speedText(_ mps: Double) -> String {
        let s = speed(mps)
        return "\(s.value) \(s.unit)"
    }

    /// `0:04:05`, `2:59:46`.
    package static func duration(_ seconds: Double) -> String {
        let s = Int(max(0, seconds).rounded(.down))
        return "\(s / 3600):" + String(s / 60 % 60).leftPadded(to: 2) + ":" + String(s % 60).leftPadded(to: 2)
    }

    /// `2 h 59 min`, `23 min`, `45 s`.
    package static func durationWords(_ seconds: Double) -> String {
        let s = Int(max(0, seconds).rounded())
        if s < 60 { return "\(s) s" }
        if s < 3600 { return "\(s / 60) min" }
        return "\(s / 3600) h \(s / 60 % 60) min"
    }

    /// `12.35` with `digits` decimals, rounded half away from zero.
    package static func fixed(_ value: Double, digits: Int) -> String {
        guard value.isFinite else { return "–" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let n = Int64((abs(value) * scale).rounded())
        let sign = value < 0 && n != 0 ? "-" : ""
        guard digits > 0 else { return sign + String(n) }
        let whole = n / Int64(scale), frac = n % Int64(scale)
        return sign + String(whole) + "." + String(frac).leftPadded(to: digits)
    }

    /// `2029-11-17 11:22` (UTC; GPS time) from an ISO 8601 text.
    package static func minute(_ iso: String?) -> String {
        guard let iso, iso.count >= 16 else { return "–" }
        let chars = Array(iso)
        return String(chars[0..<10]) + " " + String(chars[11..<16])
    }
}
