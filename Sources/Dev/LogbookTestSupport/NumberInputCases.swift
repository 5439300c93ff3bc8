// SPDX-License-Identifier: MIT

/// What people type into a number field, and what it means (nil: refused): one table for
/// the CLI's options and the web's forms, which share one parser (issue 23, part 4).
public enum NumberInputCases {
    public static let litres: [(typed: String, litres: Double?)] = [
        ("45.3", 45.3), ("45,3", 45.3), ("60,5", 60.5), ("-", nil), ("1.234,5", nil), ("1,234.5", nil), ("4,5,6", nil), ("1e3", nil),
        ("12 l", nil),
    ]
}
