// SPDX-License-Identifier: MIT
#if canImport(Glibc)
    internal import Glibc
#endif

/// The documented minimum strength of the web password, and the estimate it is judged by.
///
/// The estimate counts each character as one draw from the character classes the password
/// uses (lower case 26, upper case 26, digits 10, ASCII symbols and space 33, anything else
/// 100), except a character that repeats the one before or continues a run (`aaaa`, `1234`,
/// `dcba`), which counts nothing. It assumes the characters are random: it cannot see
/// words, so `correct horse` counts 65 bits where a dictionary attack needs far fewer. Use
/// a generated password (or four or more random words).
package enum PasswordStrength {
    /// The least estimated strength `logbook-web` starts with, in bits. With at most
    /// ``LoginLimiter/Policy/checksPerSecond`` guesses a second (3.2 × 10^10 in a century), a
    /// password of 2^60 possibilities is found within a century with a chance below 3 × 10^-8.
    package static let minimumBits = 60.0

    /// The estimated strength of `password` in bits.
    package static func bits(_ password: String) -> Double {
        var pool = 0
        var lower = false, upper = false, digit = false, symbol = false, other = false
        var counted = 0
        var previous: UInt32?
        var step: Int64?
        for scalar in password.unicodeScalars {
            let v = scalar.value
            switch v {
            case 0x61...0x7A: lower = true
            case 0x41...0x5A: upper = true
            case 0x30...0x39: digit = true
            case 0x20...0x7E: symbol = true
            default: other = true
            }
            let delta = previous.map { Int64(v) - Int64($0) }
            // A repeat, or the next step of a run going up or down by one, adds nothing.
            if let delta, delta == 0 || (abs(delta) == 1 && (step == nil || step == delta)) {
                step = delta == 0 ? nil : delta
            } else {
                counted += 1
                step = nil
            }
            previous = v
        }
        if lower { pool += 26 }
        if upper { pool += 26 }
        if digit { pool += 10 }
        if symbol { pool += 33 }
        if other { pool += 100 }
        guard pool > 1 else { return 0 }
        return Double(counted) * log2(Double(pool))
    }

    /// What to say about a password weaker than the minimum.
    package static func problem(_ password: String) -> String? {
        let estimate = bits(password)
        guard estimate < minimumBits else { return nil }
        return "the password is too weak: about \(Int(estimate)) bits, at least \(Int(minimumBits)) needed "
            + "(e.g. 11 random letters and digits, 13 random lower-case letters, or four random words)"
    }
}
