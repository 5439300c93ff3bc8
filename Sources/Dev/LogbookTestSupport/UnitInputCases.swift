// SPDX-License-Identifier: MIT

/// What a person types in imperial mode and what the journal must hold, shared by the CLI's
/// and the web forms' tests (one table, one conversion).
public enum UnitInputCases {
    /// US gallons typed, litres journaled (three decimals), what `fuel list` shows.
    public static let gallons: [(typed: String, litres: Double, shown: String)] = [
        ("10", 37.854, "10.00 gal"), ("10,5", 39.747, "10.50 gal"), ("12.25", 46.371, "12.25 gal"),
    ]
    /// Miles typed on the odometer, km journaled.
    public static let miles: [(typed: String, km: Double, shown: String)] = [
        ("10000", 16_093.44, "10000 mi"), ("10250,5", 16_496.581, "10251 mi"), ("10600", 17_059.046, "10600 mi"),
    ]
    /// Unit tokens that must not appear in imperial output (whole words).
    public static let metricTokens: Set<String> = ["L", "km", "km/h", "L/100", "km/L", "litres", "litre", "LITRES"]

    /// The lines of `text` that carry a metric unit token.
    public static func metricLines(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init).filter { line in
            line.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "(" || $0 == ")" || $0 == ":" }).contains { metricTokens.contains(String($0)) }
        }
    }
}
