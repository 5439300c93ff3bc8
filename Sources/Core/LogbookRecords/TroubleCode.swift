// SPDX-License-Identifier: MIT
/// A diagnostic trouble code (SAE J2012 / ISO 15031-6), e.g. `P0133`.
///
/// On the wire a code is two bytes: the top two bits of the first pick the system (P, C, B,
/// U), the next two the first digit (0–3), and the remaining twelve bits are three hex digits.
public struct TroubleCode: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The two bytes as the ECU sent them.
    public let raw: UInt16

    /// Decodes the two bytes of a mode 03/07 reply. 0x0000 is padding, not a code: nil.
    public init?(high: UInt8, low: UInt8) {
        let raw = UInt16(high) << 8 | UInt16(low)
        guard raw != 0 else { return nil }
        self.raw = raw
    }

    /// Parses `P0133`-style text (the letter and four hex digits); nil otherwise.
    public init?(_ text: String) {
        let u = Array(text.utf8)
        guard u.count == 5, let system = Self.systems.firstIndex(of: u[0] & 0xDF), (48...51).contains(u[1]) else { return nil }
        var value = UInt16(system) << 14 | UInt16(u[1] - 48) << 12
        for (i, c) in u[2...].enumerated() {
            guard let digit = Self.hexValue(c) else { return nil }
            value |= UInt16(digit) << UInt16(8 - 4 * i)
        }
        guard value != 0 else { return nil }
        raw = value
    }

    /// `P`, `C`, `B` or `U`: powertrain, chassis, body, network.
    public var system: Character { Character(UnicodeScalar(Self.systems[Int(raw >> 14)])) }

    /// The text shown to people, e.g. `P0420`.
    public var description: String {
        let digits = "0123456789ABCDEF".utf8.map { Character(UnicodeScalar($0)) }
        var s = String(system)
        s.append(digits[Int(raw >> 12 & 0x3)])
        for shift in [8, 4, 0] { s.append(digits[Int(raw >> UInt16(shift) & 0xF)]) }
        return s
    }

    /// Whether SAE J2012 defines the code for every make (the rest are the maker's own):
    /// P0, P2, P34–P39, C0, B0, U0 (and U3, reserved, counted as not generic).
    public var isGeneric: Bool {
        let first = raw >> 12 & 0x3
        switch system {
        case "P":
            if first == 0 || first == 2 { return true }
            return first == 3 && (raw >> 8 & 0xF) >= 4
        default:
            return first == 0
        }
    }

    /// The generic description (SAE J2012 wording, shortened) when the code is generic and
    /// known to ``TroubleCodeDescriptions``; nil for a maker's own code or one not in the table.
    public var genericDescription: String? {
        isGeneric ? TroubleCodeDescriptions.description(of: self) : nil
    }

    public static func < (a: TroubleCode, b: TroubleCode) -> Bool { a.raw < b.raw }

    private static let systems: [UInt8] = Array("PCBU".utf8)

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: c - 48
        case 65...70: c - 55
        case 97...102: c - 87
        default: nil
        }
    }
}
