// SPDX-License-Identifier: MIT
/// Speed as colour, as the seed app's trip view drew it: red at standstill, yellow at half the
/// trip's top speed, green at the top speed (the hue runs 0° → 60° → 120°). Speeds fall into
/// ``bands`` bands so that a route can be drawn, and simplified, one band at a time.
public enum SpeedColor {
    /// How many colour bands the range is cut into.
    public static let bands = 12

    /// The band of `speed` against `maxSpeed` (0 = slowest, `bands - 1` = fastest).
    public static func band(_ speed: Double, max maxSpeed: Double) -> Int {
        guard maxSpeed > 0, speed.isFinite else { return 0 }
        let f = min(max(speed / maxSpeed, 0), 1)
        return min(Int(f * Double(bands)), bands - 1)
    }

    /// `#rrggbb` for a band (its middle).
    public static func hex(band: Int) -> String {
        hex(fraction: (Double(band) + 0.5) / Double(bands))
    }

    /// `#rrggbb` for a fraction of the top speed, 0…1.
    public static func hex(fraction: Double) -> String {
        let (r, g, b) = rgb(fraction: fraction)
        let digits = Array("0123456789abcdef")
        var s = "#"
        for v in [r, g, b] {
            s.append(digits[Int(v >> 4)])
            s.append(digits[Int(v & 15)])
        }
        return s
    }

    /// Red → yellow → green: hue 120° × fraction at 90 % saturation and 92 % value, which
    /// reads on a light and a dark background alike.
    public static func rgb(fraction: Double) -> (UInt8, UInt8, UInt8) {
        let f = fraction.isFinite ? min(max(fraction, 0), 1) : 0
        let value = 0.92 * 255, low = value * 0.1
        let rising = low + (value - low) * min(f * 2, 1)  // red's partner green, 0…½
        let falling = low + (value - low) * min((1 - f) * 2, 1)  // red fading out, ½…1
        let r = f <= 0.5 ? value : falling
        let g = f <= 0.5 ? rising : value
        return (UInt8(r.rounded()), UInt8(g.rounded()), UInt8(low.rounded()))
    }
}
