// SPDX-License-Identifier: MIT

/// The unquoted values of TOML: booleans, integers, floats, dates and times.
enum TOMLScalar {
    static func classify(_ token: [UInt8]) -> ConfigValue? {
        guard let first = token.first else { return nil }
        let text = String(decoding: token, as: UTF8.self)
        switch text {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "inf", "+inf": return .double(.infinity)
        case "-inf": return .double(-.infinity)
        case "nan", "+nan", "-nan": return .double(.nan)
        default: break
        }
        if isDateOrTime(token) { return .string(text) }
        guard first == UInt8(ascii: "+") || first == UInt8(ascii: "-") || isDigit(first) else { return nil }
        if let i = integer(token) { return .integer(i) }
        if let d = float(token) { return .double(d) }
        return nil
    }

    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    static func isHexDigit(_ b: UInt8) -> Bool {
        isDigit(b) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66)
    }

    /// Decimal with optional sign and no leading zero, or `0x`/`0o`/`0b` without sign;
    /// `_` only between digits.
    private static func integer(_ token: [UInt8]) -> Int? {
        if token.count > 2, token[0] == UInt8(ascii: "0") {
            let radix: Int
            let valid: (UInt8) -> Bool
            switch token[1] {
            case UInt8(ascii: "x"): (radix, valid) = (16, isHexDigit)
            case UInt8(ascii: "o"): (radix, valid) = (8, { $0 >= 0x30 && $0 <= 0x37 })
            case UInt8(ascii: "b"): (radix, valid) = (2, { $0 == 0x30 || $0 == 0x31 })
            default: return nil
            }
            guard let digits = digits(token[2...], valid: valid) else { return nil }
            return Int(digits, radix: radix)
        }
        var body = token[...]
        let negative = body.first == UInt8(ascii: "-")
        if body.first == UInt8(ascii: "+") || negative { body = body.dropFirst() }
        guard let digits = digits(body, valid: isDigit) else { return nil }
        if digits.count > 1 && digits.first == "0" { return nil }
        return Int((negative ? "-" : "") + digits)
    }

    /// The digits of `body` with `_` separators removed, or nil when `_` is misplaced or a
    /// byte is not a digit.
    private static func digits(_ body: ArraySlice<UInt8>, valid: (UInt8) -> Bool) -> String? {
        guard let first = body.first, let last = body.last, valid(first), valid(last) else { return nil }
        var out: [UInt8] = []
        var previous: UInt8 = 0
        for b in body {
            if b == UInt8(ascii: "_") {
                guard valid(previous) else { return nil }
            } else {
                guard valid(b) else { return nil }
                out.append(b)
            }
            previous = b
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `[+-]int[.frac][(e|E)[+-]exp]`, at least one of frac and exp; no leading zeros.
    private static func float(_ token: [UInt8]) -> Double? {
        var body = token[...]
        var sign = ""
        if body.first == UInt8(ascii: "+") || body.first == UInt8(ascii: "-") {
            sign = body.first == UInt8(ascii: "-") ? "-" : ""
            body = body.dropFirst()
        }
        let expAt = body.firstIndex { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
        let mantissa = body[..<(expAt ?? body.endIndex)]
        let dotAt = mantissa.firstIndex(of: UInt8(ascii: "."))
        guard dotAt != nil || expAt != nil else { return nil }
        guard let whole = digits(mantissa[..<(dotAt ?? mantissa.endIndex)], valid: isDigit) else { return nil }
        if whole.count > 1 && whole.first == "0" { return nil }
        var text = sign + whole
        if let dotAt {
            guard let frac = digits(mantissa[(dotAt + 1)...], valid: isDigit) else { return nil }
            text += "." + frac
        }
        if let expAt {
            var exp = body[(expAt + 1)...]
            var expSign = ""
            if exp.first == UInt8(ascii: "+") || exp.first == UInt8(ascii: "-") {
                expSign = exp.first == UInt8(ascii: "-") ? "-" : "+"
                exp = exp.dropFirst()
            }
            guard let e = digits(exp, valid: isDigit) else { return nil }
            text += "e" + expSign + e
        }
        return Double(text)
    }

    /// `1979-05-27`, `07:32:00`, `1979-05-27T07:32:00.999-07:00`… checked for shape only:
    /// digits where digits belong.
    private static func isDateOrTime(_ token: [UInt8]) -> Bool {
        func shape(_ at: Int, _ pattern: String) -> Bool {
            let p = Array(pattern.utf8)
            guard at + p.count <= token.count else { return false }
            for (i, c) in p.enumerated() {
                let b = token[at + i]
                if c == UInt8(ascii: "9") ? !isDigit(b) : b != c { return false }
            }
            return true
        }
        if shape(0, "99:99:99") { return timeTail(token, 8) }
        guard shape(0, "9999-99-99") else { return false }
        if token.count == 10 { return true }
        let t = token[10]
        guard t == UInt8(ascii: "T") || t == UInt8(ascii: "t") || t == 0x20, shape(11, "99:99:99") else { return false }
        return timeTail(token, 19)
    }

    /// Optional fraction, then optional `Z` or `±hh:mm`, then the end.
    private static func timeTail(_ token: [UInt8], _ start: Int) -> Bool {
        var i = start
        if i < token.count, token[i] == UInt8(ascii: ".") {
            i += 1
            let digitsStart = i
            while i < token.count, isDigit(token[i]) { i += 1 }
            guard i > digitsStart else { return false }
        }
        if i == token.count { return true }
        if token[i] == UInt8(ascii: "Z") || token[i] == UInt8(ascii: "z") { return i + 1 == token.count }
        guard token[i] == UInt8(ascii: "+") || token[i] == UInt8(ascii: "-"), i + 6 == token.count else { return false }
        let rest = Array(token[(i + 1)...])
        return isDigit(rest[0]) && isDigit(rest[1]) && rest[2] == UInt8(ascii: ":") && isDigit(rest[3]) && isDigit(rest[4])
    }
}
