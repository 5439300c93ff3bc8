// SPDX-License-Identifier: MIT
/// The PIDs a car says it supports: the bitmaps of `0100`, `0120`, … `01A0` (or `0900`).
///
/// Each bitmap answers for the 32 PIDs after its own: bit 7 of its first byte is PID base+1,
/// bit 0 of its last byte base+32, which (0x20, 0x40, …) also says whether the next bitmap
/// may be asked.
public struct SupportedPIDs: Sendable, Hashable {
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    public init() {}

    /// Adds the 32 PIDs after `base` that `bitmap` (4 bytes) marks supported.
    public mutating func insert(bitmap: [UInt8], base: UInt8) {
        guard bitmap.count == 4 else { return }
        for (i, byte) in bitmap.enumerated() {
            for bit in 0..<8 where byte & (0x80 >> UInt8(bit)) != 0 {
                let pid = Int(base) + i * 8 + bit + 1
                if pid <= 0xFF { insert(UInt8(pid)) }
            }
        }
    }

    public mutating func insert(_ pid: UInt8) {
        let bit = UInt64(1) << UInt64(pid & 63)
        switch pid >> 6 {
        case 0: words.0 |= bit
        case 1: words.1 |= bit
        case 2: words.2 |= bit
        default: words.3 |= bit
        }
    }

    public func contains(_ pid: UInt8) -> Bool {
        let bit = UInt64(1) << UInt64(pid & 63)
        switch pid >> 6 {
        case 0: return words.0 & bit != 0
        case 1: return words.1 & bit != 0
        case 2: return words.2 & bit != 0
        default: return words.3 & bit != 0
        }
    }

    /// Every supported PID, ascending.
    public var pids: [UInt8] { (1...255).compactMap { contains(UInt8($0)) ? UInt8($0) : nil } }

    public static func == (a: SupportedPIDs, b: SupportedPIDs) -> Bool { a.words == b.words }

    public func hash(into h: inout Hasher) {
        h.combine(words.0)
        h.combine(words.1)
        h.combine(words.2)
        h.combine(words.3)
    }
}
