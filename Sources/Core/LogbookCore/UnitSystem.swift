// SPDX-License-Identifier: MIT
/// Metric or imperial, for what a person reads; the data in exports stays SI.
public enum UnitSystem: String, Sendable, CaseIterable {
    case metric, imperial

    /// `km` or `mi`.
    public var distanceUnit: String { self == .metric ? "km" : "mi" }
    /// `km/h` or `mph`.
    public var speedUnit: String { self == .metric ? "km/h" : "mph" }

    /// Metres in this system's long-distance unit.
    public func distance(_ metres: Double) -> Double { self == .metric ? metres / 1000 : metres / 1609.344 }
    /// Metres per second in this system's speed unit.
    public func speed(_ mps: Double) -> Double { self == .metric ? mps * 3.6 : mps * 3600 / 1609.344 }

    /// `242.7 km` (one decimal below 1000, none above).
    public func distanceText(_ metres: Double) -> String {
        let d = distance(metres)
        return NumberText.fixed(d, places: d >= 1000 ? 0 : 1) + " " + distanceUnit
    }

    /// `82 km/h` (whole units).
    public func speedText(_ mps: Double) -> String {
        NumberText.fixed(speed(mps), places: 0) + " " + speedUnit
    }
}

/// Numbers as text for people, without Foundation's formatters.
public enum NumberText {
    private static let powersOfTen: [Int64] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000]

    /// `value` with exactly `places` decimals (`82`, `242.7`, `0.05`).
    public static func fixed(_ value: Double, places: Int) -> String {
        guard value.isFinite else { return "–" }
        let p = min(max(places, 0), 9)
        let scale = powersOfTen[p]
        let scaled = (value.magnitude * Double(scale)).rounded()
        guard scaled < 9e18 else { return String(value) }
        let n = Int64(scaled)
        var s = (value < 0 && n != 0 ? "-" : "") + String(n / scale)
        if p > 0 {
            let frac = String(n % scale)
            s += "." + String(repeating: "0", count: p - frac.count) + frac
        }
        return s
    }

    /// `2 h 58 min`, `45 min`, `40 s`.
    public static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "–" }
        let total = Int(seconds.rounded())
        if total < 60 { return "\(total) s" }
        let minutes = (total + 30) / 60
        if minutes < 60 { return "\(minutes) min" }
        return "\(minutes / 60) h \(minutes % 60) min"
    }
}
