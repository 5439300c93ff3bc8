// SPDX-License-Identifier: MIT
/// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), slicing-by-8, plus LevelDB's mask.
///
/// No Swift package we depend on offers CRC-32C, and it is ~40 lines; slicing-by-8 keeps the
/// recovery scan and `verify` fast even in debug builds (docs/journal.md, "Physical format").
public enum CRC32C {
    /// Eight 256-entry tables, flattened: table k at `k * 256`.
    static let tables: [UInt32] = {
        var t = [UInt32](repeating: 0, count: 8 * 256)
        for i in 0..<256 {
            var c = UInt32(i)
            for _ in 0..<8 { c = (c & 1) != 0 ? (c >> 1) ^ 0x82F6_3B78 : c >> 1 }
            t[i] = c
        }
        for i in 0..<256 {
            for k in 1..<8 { t[k * 256 + i] = (t[(k - 1) * 256 + i] >> 8) ^ t[Int(t[(k - 1) * 256 + i] & 0xFF)] }
        }
        return t
    }()

    /// Extends `crc` (a finished CRC-32C value, 0 for none) with `bytes`.
    public static func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var c = ~crc
        guard let base = bytes.baseAddress else { return crc }
        let count = bytes.count
        tables.withUnsafeBufferPointer { t in
            guard let tp = t.baseAddress else { return }
            var i = 0
            while i + 8 <= count {
                let lo = c ^ (UInt32(base.load(fromByteOffset: i, as: UInt8.self))
                    | UInt32(base.load(fromByteOffset: i + 1, as: UInt8.self)) << 8
                    | UInt32(base.load(fromByteOffset: i + 2, as: UInt8.self)) << 16
                    | UInt32(base.load(fromByteOffset: i + 3, as: UInt8.self)) << 24)
                let hi = UInt32(base.load(fromByteOffset: i + 4, as: UInt8.self))
                    | UInt32(base.load(fromByteOffset: i + 5, as: UInt8.self)) << 8
                    | UInt32(base.load(fromByteOffset: i + 6, as: UInt8.self)) << 16
                    | UInt32(base.load(fromByteOffset: i + 7, as: UInt8.self)) << 24
                c = tp[7 * 256 + Int(lo & 0xFF)] ^ tp[6 * 256 + Int((lo >> 8) & 0xFF)]
                    ^ tp[5 * 256 + Int((lo >> 16) & 0xFF)] ^ tp[4 * 256 + Int(lo >> 24)]
                    ^ tp[3 * 256 + Int(hi & 0xFF)] ^ tp[2 * 256 + Int((hi >> 8) & 0xFF)]
                    ^ tp[256 + Int((hi >> 16) & 0xFF)] ^ tp[Int(hi >> 24)]
                i += 8
            }
            while i < count {
                c = (c >> 8) ^ tp[Int((c ^ UInt32(base.load(fromByteOffset: i, as: UInt8.self))) & 0xFF)]
                i += 1
            }
        }
        return ~c
    }

    /// CRC-32C of a byte sequence.
    public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        let array = Array(bytes)
        return array.withUnsafeBytes { update(0, $0) }
    }

    /// LevelDB's mask: a CRC stored next to data that itself contains CRCs stays useful.
    public static func mask(_ crc: UInt32) -> UInt32 { ((crc >> 15) | (crc << 17)) &+ 0xA282_EAD8 }

    /// Inverse of ``mask(_:)``.
    public static func unmask(_ masked: UInt32) -> UInt32 {
        let r = masked &- 0xA282_EAD8
        return (r >> 17) | (r << 15)
    }
}
