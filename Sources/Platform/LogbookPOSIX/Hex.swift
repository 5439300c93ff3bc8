// SPDX-License-Identifier: MIT

/// Lower-case hex for keys, digests, chain heads, signatures and session tokens in messages,
/// rows, reports and files.
public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// `bytes` as lower-case hex digits, two per byte.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of a hex string (either case, optional `\x` prefix as PostgreSQL prints
    /// bytea); nil when malformed.
    public static func decode(_ text: String) -> [UInt8]? {
        var chars = Array(text.utf8)[...]
        if chars.starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "x")]) { chars = chars.dropFirst(2) }
        guard chars.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(chars.count / 2)
        var i = chars.startIndex
        while i < chars.endIndex {
            guard let hi = digit(chars[i]), let lo = digit(chars[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }

    /// `v` as lower-case hex, zero-padded to at least `width` digits (segment names, USB ids).
    public static func encode(_ v: some FixedWidthInteger & UnsignedInteger, width: Int) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }

    /// The value of one hex digit (either case), nil for any other byte.
    public static func digit(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
