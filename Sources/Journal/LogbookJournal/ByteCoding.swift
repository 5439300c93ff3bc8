// SPDX-License-Identifier: MIT
/// Little-endian encoder for journal records: a growable byte array.
struct ByteWriter {
    var bytes: [UInt8] = []

    init(capacity: Int = 64) { bytes.reserveCapacity(capacity) }

    mutating func u8(_ v: UInt8) { bytes.append(v) }
    mutating func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func i32(_ v: Int32) { u32(UInt32(bitPattern: v)) }
    mutating func i64(_ v: Int64) { u64(UInt64(bitPattern: v)) }
    mutating func bool(_ v: Bool) { u8(v ? 1 : 0) }
    mutating func f64(_ v: Double) { u64(v.bitPattern) }
    mutating func raw(_ v: some Sequence<UInt8>) { bytes.append(contentsOf: v) }

    /// Length-prefixed (u16) UTF-8; longer strings are cut at 65535 bytes.
    mutating func string(_ s: String) {
        let utf8 = Array(s.utf8.prefix(Int(UInt16.max)))
        u16(UInt16(utf8.count))
        raw(utf8)
    }

    /// Presence byte then the string.
    mutating func optionalString(_ s: String?) {
        if let s { u8(1); string(s) } else { u8(0) }
    }

    /// `Int64.min` stands for "none": GPS times never reach it.
    mutating func optionalTime(_ t: Int64?) { i64(t ?? Int64.min) }
}

/// Thrown when a payload is shorter than its fields or holds impossible values.
struct DecodeError: Error, CustomStringConvertible {
    var description: String
}

/// Little-endian decoder over a byte array slice; every read is bounds-checked and throws.
struct ByteReader {
    let bytes: [UInt8]
    var offset: Int
    let end: Int

    init(_ bytes: [UInt8], from: Int = 0, end: Int? = nil) {
        self.bytes = bytes
        self.offset = from
        self.end = end ?? bytes.count
    }

    var remaining: Int { end - offset }

    private mutating func take(_ n: Int) throws -> Int {
        guard n >= 0, offset + n <= end else { throw DecodeError(description: "record too short") }
        defer { offset += n }
        return offset
    }

    mutating func u8() throws -> UInt8 { bytes[try take(1)] }
    // Bounds are checked by take(); loadUnaligned keeps debug builds (crash tests) fast.
    mutating func u16() throws -> UInt16 {
        let o = try take(2)
        return UInt16(littleEndian: bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: o, as: UInt16.self) })
    }
    mutating func u32() throws -> UInt32 {
        let o = try take(4)
        return UInt32(littleEndian: bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: o, as: UInt32.self) })
    }
    mutating func u64() throws -> UInt64 {
        let o = try take(8)
        return UInt64(littleEndian: bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: o, as: UInt64.self) })
    }
    mutating func i32() throws -> Int32 { Int32(bitPattern: try u32()) }
    mutating func i64() throws -> Int64 { Int64(bitPattern: try u64()) }
    mutating func f64() throws -> Double { Double(bitPattern: try u64()) }
    mutating func bool() throws -> Bool {
        switch try u8() {
        case 0: return false
        case 1: return true
        default: throw DecodeError(description: "bad boolean")
        }
    }
    mutating func raw(_ n: Int) throws -> [UInt8] {
        let o = try take(n)
        return Array(bytes[o..<(o + n)])
    }
    mutating func string() throws -> String {
        let n = Int(try u16())
        let o = try take(n)
        return String(decoding: bytes[o..<(o + n)], as: UTF8.self)
    }
    mutating func optionalString() throws -> String? { try bool() ? try string() : nil }
    mutating func optionalTime() throws -> Int64? {
        let v = try i64()
        return v == Int64.min ? nil : v
    }
}
