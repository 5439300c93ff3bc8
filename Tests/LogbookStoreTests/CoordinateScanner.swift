// SPDX-License-Identifier: MIT
import Foundation

/// Finds coordinates in any file, whatever its format: pairs of 32-bit integers in 1e-7
/// degrees (the journal's points) and of 64-bit doubles (SQLite's REAL columns, big-endian;
/// anything written little-endian), both byte orders, at every byte offset; and pairs of
/// decimal numbers in text (GPX, GeoJSON, CSV, JSON), either order. A pair counts as a
/// coordinate when it falls in `box` (the drive's area), and is reported when `inside` names
/// a zone for it.
struct CoordinateScanner {
    struct Hits {
        var total = 0
        var inside: [String] = []
    }

    var box = (lat: 47.9...48.4, lon: 11.3...11.8)
    let inside: (Double, Double) -> String?

    func scan(_ bytes: [UInt8]) -> Hits {
        var hits = Hits()
        func check(_ lat: Double, _ lon: Double, _ how: String) {
            guard box.lat.contains(lat), box.lon.contains(lon) else { return }
            hits.total += 1
            if let zone = inside(lat, lon) { hits.inside.append("\(how) \(lat),\(lon) in \(zone)") }
        }
        bytes.withUnsafeBufferPointer { b in
            let n = b.count
            func u32(_ i: Int, big: Bool) -> UInt32 {
                let v = UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
                return big ? v.byteSwapped : v
            }
            func u64(_ i: Int, big: Bool) -> UInt64 {
                let lo = UInt64(u32(i, big: false)), hi = UInt64(u32(i + 4, big: false))
                let v = lo | hi << 32
                return big ? v.byteSwapped : v
            }
            var i = 0
            while i + 8 <= n {
                if b[i] != 0 || b[i + 1] != 0 || b[i + 2] != 0 || b[i + 3] != 0 {
                    for big in [false, true] {
                        let lat = Double(Int32(bitPattern: u32(i, big: big))) / 1e7
                        let lon = Double(Int32(bitPattern: u32(i + 4, big: big))) / 1e7
                        check(lat, lon, "int32\(big ? "be" : "le")@\(i)")
                        if i + 16 <= n {
                            check(Double(bitPattern: u64(i, big: big)), Double(bitPattern: u64(i + 8, big: big)), "f64\(big ? "be" : "le")@\(i)")
                        }
                    }
                }
                i += 1
            }
        }
        // Decimal numbers in text, in order; each neighbouring pair both ways round.
        var numbers: [Double] = []
        var token: [UInt8] = []
        func endToken() {
            if token.contains(UInt8(ascii: ".")), let v = Double(String(decoding: token, as: UTF8.self)) { numbers.append(v) }
            token.removeAll(keepingCapacity: true)
        }
        for c in bytes {
            if (c >= 48 && c <= 57) || c == UInt8(ascii: ".") || (c == UInt8(ascii: "-") && token.isEmpty) {
                token.append(c)
            } else {
                endToken()
            }
        }
        endToken()
        if numbers.count > 1 {
            for j in 0..<(numbers.count - 1) {
                check(numbers[j], numbers[j + 1], "text")
                check(numbers[j + 1], numbers[j], "text")
            }
        }
        return hits
    }
}
