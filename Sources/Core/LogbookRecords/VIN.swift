// SPDX-License-Identifier: MIT
/// A vehicle identification number (ISO 3779, 17 characters): typed into a vehicle record, or
/// read by the OBD adapter (mode 09 PID 02).
///
/// North American VINs (first character 1–5) carry a check digit in position 9 (49 CFR 565);
/// one that does not match is refused, so a corrupted read never names the wrong car. Other
/// regions do not use the check digit and are taken as read.
public struct VIN: Sendable, Hashable, CustomStringConvertible {
    /// The 17 characters, upper case.
    public let text: String

    /// Why a VIN was refused.
    public enum Problem: String, Error, Sendable, Hashable {
        /// Not 17 characters.
        case length
        /// A character outside 0–9 and A–Z, or one of I, O, Q (never used in a VIN).
        case character
        /// A North American VIN whose check digit does not match.
        case checkDigit
    }

    /// Validates `text` (surrounding NUL or space padding, as some ECUs send, is dropped).
    public static func parse(_ text: String) -> Result<VIN, Problem> {
        var bytes = Array(text.utf8)
        while let last = bytes.last, last == 0 || last == 32 { bytes.removeLast() }
        while let first = bytes.first, first == 0 || first == 32 { bytes.removeFirst() }
        guard bytes.count == 17 else { return .failure(.length) }
        var upper: [UInt8] = []
        for b in bytes {
            let c = (97...122).contains(b) ? b - 32 : b
            guard (48...57).contains(c) || (65...90).contains(c), c != 73, c != 79, c != 81 else { return .failure(.character) }
            upper.append(c)
        }
        let vin = VIN(text: String(decoding: upper, as: UTF8.self))
        if vin.isNorthAmerican, vin.expectedCheckDigit != upper[8] { return .failure(.checkDigit) }
        return .success(vin)
    }

    private init(text: String) { self.text = text }

    public var description: String { text }

    /// Built for North America (first character 1–5), where the check digit is mandatory.
    public var isNorthAmerican: Bool { (49...53).contains(text.utf8.first ?? 0) }

    /// The world manufacturer identifier: the first three characters.
    public var wmi: String { String(text.prefix(3)) }

    /// The manufacturer the WMI stands for, when ``WorldManufacturerIdentifiers`` knows it.
    public var manufacturer: String? { WorldManufacturerIdentifiers.manufacturer(ofVIN: text) }

    /// The check digit position 9 must hold (`0`–`9` or `X`), by the 49 CFR 565 weights.
    public var expectedCheckDigit: UInt8 {
        let weights = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2]
        var sum = 0
        for (i, c) in text.utf8.enumerated() { sum += Self.transliterate(c) * weights[i] }
        let r = sum % 11
        return r == 10 ? 88 : UInt8(48 + r)
    }

    /// Letters to numbers: A–H 1–8, J–R 1–9 (no O, Q), S–Z 2–9.
    private static func transliterate(_ c: UInt8) -> Int {
        switch c {
        case 48...57: Int(c - 48)
        case 65...72: Int(c - 64)  // A-H
        case 74...82: Int(c - 73)  // J-R (P=7, R=9)
        case 83...90: Int(c - 81)  // S-Z
        default: 0
        }
    }

    /// The model year from position 10 (ISO 3779's 30-year cycle of codes), or nil when the
    /// position holds no year code (`0`, `U`, `Z`; European makers often fill it).
    ///
    /// Which cycle: a letter in position 7 means 2010–2039, a digit 1980–2009 (the North
    /// American rule, used for every VIN as the best guess); a year after `currentYear + 1`
    /// is taken from the earlier cycle.
    public func modelYear(currentYear: Int) -> Int? {
        let u = Array(text.utf8)
        guard let index = Self.yearCodes.firstIndex(of: u[9]) else { return nil }
        let letterAt7 = (65...90).contains(u[6])
        var year = 1980 + index + (letterAt7 ? 30 : 0)
        if year > currentYear + 1 { year -= 30 }
        return year
    }

    /// Year codes in order from 1980 (A) to 2009 (9).
    private static let yearCodes: [UInt8] = Array("ABCDEFGHJKLMNPRSTVWXY123456789".utf8)
}
