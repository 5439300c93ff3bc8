// SPDX-License-Identifier: MIT

/// A TOML 1.0 reader in plain Swift (no C++, no Foundation), producing ``ConfigValue``.
///
/// Covers what a configuration file needs: comments, bare/quoted/dotted keys, tables, arrays
/// of tables, inline tables, the four string forms with escapes, integers (decimal, hex, octal,
/// binary, `_` separators), floats (`inf`, `nan`), booleans and arrays. Dates and times are
/// kept as their text (no key of ours is a date). Errors name the line and column.
///
/// Nesting is limited to ``ConfigValue/maximumNesting`` levels (arrays, inline tables and the
/// parts of a dotted key or header together): the parser and the tree it builds recurse, and
/// a file of 40,000 `[` would otherwise exhaust the stack (SIGSEGV instead of exit 78).
struct TOMLParser {
    struct Failure: Error {
        var line: Int
        var column: Int
        var message: String
    }

    private let bytes: [UInt8]
    private var pos = 0
    private let root = TOMLTable()
    /// Path of the current `[table]` or `[[array]]` element.
    private var current: [String] = []
    /// Arrays and inline tables open around the value being read, plus its key's depth.
    private var depth = 0

    init(_ text: String) { bytes = Array(text.utf8) }

    static func parse(_ text: String) throws(Failure) -> ConfigValue {
        var parser = TOMLParser(text)
        return try parser.document()
    }

    private mutating func document() throws(Failure) -> ConfigValue {
        while true {
            skipBlank(newlines: true)
            guard let c = peek else { break }
            if c == UInt8(ascii: "[") {
                try header()
            } else {
                let start = pos
                let key = try self.key()
                try expect(UInt8(ascii: "="), "expected '=' after a key")
                skipBlank(newlines: false)
                depth = current.count + key.count
                guard depth <= ConfigValue.maximumNesting else { throw tooDeep() }
                let value = try self.value()
                do { try root.insert(value, at: current + key) } catch let conflict { throw failure(conflict.text, at: start) }
            }
            try endOfLine()
        }
        return root.value
    }

    // MARK: Headers and keys

    private mutating func header() throws(Failure) {
        let start = pos
        pos += 1
        let isArray = peek == UInt8(ascii: "[")
        if isArray { pos += 1 }
        skipBlank(newlines: false)
        let path = try key()
        try expect(UInt8(ascii: "]"), "expected ']' to close the table header")
        if isArray { try expect(UInt8(ascii: "]"), "expected ']]' to close the array of tables header") }
        do {
            if isArray { try root.appendTable(at: path) } else { try root.defineTable(at: path) }
        } catch let conflict {
            throw failure(conflict.text, at: start)
        }
        current = path
    }

    /// A dotted key; whitespace around the dots is allowed.
    private mutating func key() throws(Failure) -> [String] {
        var parts: [String] = []
        while true {
            guard parts.count < ConfigValue.maximumNesting else { throw tooDeep() }
            skipBlank(newlines: false)
            guard let c = peek else { throw failure("expected a key") }
            if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                if lookingAt(c, c, c) { throw failure("a key cannot be a multi-line string") }
                parts.append(try string())
            } else {
                let start = pos
                while let b = peek, Self.isBareKey(b) { pos += 1 }
                guard pos > start else { throw failure("expected a key") }
                parts.append(String(decoding: bytes[start..<pos], as: UTF8.self))
            }
            skipBlank(newlines: false)
            guard peek == UInt8(ascii: ".") else { return parts }
            pos += 1
        }
    }

    static func isBareKey(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x5F || b == 0x2D
    }

    // MARK: Values

    private mutating func value() throws(Failure) -> ConfigValue {
        guard let c = peek else { throw failure("expected a value") }
        switch c {
        case UInt8(ascii: "\""), UInt8(ascii: "'"): return .string(try string())
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "{"): return try inlineTable()
        default: return try scalar()
        }
    }

    private mutating func array() throws(Failure) -> ConfigValue {
        try enter()
        defer { depth -= 1 }
        pos += 1
        var items: [ConfigValue] = []
        while true {
            skipBlank(newlines: true)
            if peek == UInt8(ascii: "]") { pos += 1; return .array(items) }
            items.append(try value())
            skipBlank(newlines: true)
            if peek == UInt8(ascii: ",") { pos += 1; continue }
            try expect(UInt8(ascii: "]"), "expected ',' or ']' in an array")
            return .array(items)
        }
    }

    private mutating func inlineTable() throws(Failure) -> ConfigValue {
        try enter()
        defer { depth -= 1 }
        pos += 1
        let table = TOMLTable()
        skipBlank(newlines: false)
        if peek == UInt8(ascii: "}") { pos += 1; return table.value }
        while true {
            let start = pos
            let key = try self.key()
            try expect(UInt8(ascii: "="), "expected '=' after a key")
            skipBlank(newlines: false)
            depth += key.count
            defer { depth -= key.count }
            guard depth <= ConfigValue.maximumNesting else { throw tooDeep() }
            let value = try self.value()
            do { try table.insert(value, at: key) } catch let conflict { throw failure(conflict.text, at: start) }
            skipBlank(newlines: false)
            if peek == UInt8(ascii: ",") { pos += 1; continue }
            try expect(UInt8(ascii: "}"), "expected ',' or '}' in an inline table")
            return table.value
        }
    }

    /// Booleans, numbers, dates: read the token up to a delimiter, then classify it.
    private mutating func scalar() throws(Failure) -> ConfigValue {
        let start = pos
        pos = bytes.withUnsafeBufferPointer { buffer in
            var i = start
            while i < buffer.count, !Self.endsScalar(buffer[i]) { i += 1 }
            return i
        }
        // A date-time may have one space between date and time (`1979-05-27 07:32:00`).
        if pos - start == 10, peek == 0x20, pos + 1 < bytes.count, bytes[pos + 1] >= 0x30, bytes[pos + 1] <= 0x39,
            bytes[start + 4] == UInt8(ascii: "-")
        {
            pos += 1
            while let b = peek, !Self.endsScalar(b) { pos += 1 }
        }
        let token = Array(bytes[start..<pos])
        guard let value = TOMLScalar.classify(token) else {
            pos = start
            throw failure(token.isEmpty ? "expected a value" : "invalid value '\(String(decoding: token, as: UTF8.self))'")
        }
        return value
    }

    private static func endsScalar(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == UInt8(ascii: ",") || b == UInt8(ascii: "]")
            || b == UInt8(ascii: "}") || b == UInt8(ascii: "#")
    }

    // MARK: Strings

    private mutating func string() throws(Failure) -> String {
        let quote = bytes[pos]
        let literal = quote == UInt8(ascii: "'")
        let multiline = lookingAt(quote, quote, quote)
        pos += multiline ? 3 : 1
        if multiline {
            // A newline right after the opening delimiter is trimmed.
            if peek == 0x0A { pos += 1 } else if lookingAt(0x0D, 0x0A) { pos += 2 }
        }
        var out: [UInt8] = []
        while true {
            guard let c = peek else { throw failure("unterminated string") }
            if c == quote {
                if !multiline { pos += 1; break }
                if lookingAt(quote, quote, quote) {
                    // Up to two quotes may end the content right before the closing three.
                    var extra = 0
                    while extra < 2, pos + 3 + extra < bytes.count, bytes[pos + 3 + extra] == quote { extra += 1 }
                    out += Array(repeating: quote, count: extra)
                    pos += 3 + extra
                    break
                }
                out.append(c)
                pos += 1
            } else if c == 0x0A || (c == 0x0D && lookingAt(0x0D, 0x0A)) {
                guard multiline else { throw failure("newline in a single-line string") }
                out.append(0x0A)
                pos += c == 0x0D ? 2 : 1
            } else if c == UInt8(ascii: "\\") && !literal {
                try escape(into: &out, multiline: multiline)
            } else if (c < 0x20 && c != 0x09) || c == 0x7F {
                throw failure("control character in a string")
            } else {
                // A run of ordinary bytes in one copy (a 50 MB value must not take seconds).
                let start = pos
                pos = bytes.withUnsafeBufferPointer { buffer in
                    var i = start + 1
                    while i < buffer.count {
                        let b = buffer[i]
                        if b == quote || b == UInt8(ascii: "\\") || b < 0x20 || b == 0x7F { break }
                        i += 1
                    }
                    return i
                }
                out.append(contentsOf: bytes[start..<pos])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private mutating func escape(into out: inout [UInt8], multiline: Bool) throws(Failure) {
        let start = pos
        pos += 1
        guard let e = peek else { throw failure("unterminated string") }
        pos += 1
        switch e {
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "\""): out.append(0x22)
        case UInt8(ascii: "\\"): out.append(0x5C)
        case UInt8(ascii: "u"), UInt8(ascii: "U"):
            let digits = e == UInt8(ascii: "u") ? 4 : 8
            guard pos + digits <= bytes.count, let code = UInt32(String(decoding: bytes[pos..<pos + digits], as: UTF8.self), radix: 16),
                bytes[pos..<pos + digits].allSatisfy({ TOMLScalar.isHexDigit($0) }), let scalar = Unicode.Scalar(code)
            else { throw failure("invalid unicode escape", at: start) }
            out += Array(String(Character(scalar)).utf8)
            pos += digits
        case 0x20, 0x09, 0x0A, 0x0D:
            guard multiline else { throw failure("invalid escape", at: start) }
            // A line-ending backslash trims the newline and the whitespace after it.
            pos -= 1
            while let b = peek, b == 0x20 || b == 0x09 { pos += 1 }
            guard peek == 0x0A || lookingAt(0x0D, 0x0A) else { throw failure("invalid escape", at: start) }
            while let b = peek, b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { pos += 1 }
        default: throw failure("invalid escape '\\\(String(decoding: [e], as: UTF8.self))'", at: start)
        }
    }

    // MARK: Nesting

    /// One more level of array or inline table.
    private mutating func enter() throws(Failure) {
        depth += 1
        guard depth <= ConfigValue.maximumNesting else {
            depth -= 1
            throw tooDeep()
        }
    }

    private func tooDeep() -> Failure {
        failure("arrays, inline tables and dotted keys nested deeper than \(ConfigValue.maximumNesting) levels")
    }

    // MARK: Lexing helpers

    private var peek: UInt8? { pos < bytes.count ? bytes[pos] : nil }

    private func lookingAt(_ expected: UInt8...) -> Bool {
        guard pos + expected.count <= bytes.count else { return false }
        for (i, b) in expected.enumerated() where bytes[pos + i] != b { return false }
        return true
    }

    private mutating func expect(_ b: UInt8, _ message: String) throws(Failure) {
        skipBlank(newlines: false)
        guard peek == b else { throw failure(message) }
        pos += 1
    }

    /// Skips spaces and tabs, and with `newlines` also line ends and comments.
    private mutating func skipBlank(newlines: Bool) {
        while let b = peek {
            if b == 0x20 || b == 0x09 {
                pos += 1
            } else if newlines && (b == 0x0A || lookingAt(0x0D, 0x0A)) {
                pos += b == 0x0D ? 2 : 1
            } else if newlines && b == UInt8(ascii: "#") {
                while let c = peek, c != 0x0A { pos += 1 }
            } else {
                return
            }
        }
    }

    /// After a key/value pair or a header: only a comment may follow on the line.
    private mutating func endOfLine() throws(Failure) {
        skipBlank(newlines: false)
        if peek == UInt8(ascii: "#") {
            pos += 1
            while let c = peek, c != 0x0A {
                if (c < 0x20 && c != 0x09 && c != 0x0D) || c == 0x7F { throw failure("control character in a comment") }
                pos += 1
            }
        }
        guard let c = peek else { return }
        if c == 0x0A { pos += 1; return }
        if lookingAt(0x0D, 0x0A) { pos += 2; return }
        throw failure("expected the end of the line")
    }

    /// Line and column (1-based, columns in characters) of byte offset `at`.
    func failure(_ message: String, at offset: Int? = nil) -> Failure {
        let end = min(offset ?? pos, bytes.count)
        var line = 1
        var lineStart = 0
        bytes.withUnsafeBufferPointer { buffer in
            for i in 0..<end where buffer[i] == 0x0A {
                line += 1
                lineStart = i + 1
            }
        }
        // Unicode scalars, not characters: as good for a person, and linear on a 50 MB line.
        let column = String(decoding: bytes[lineStart..<end], as: UTF8.self).unicodeScalars.count + 1
        return Failure(line: line, column: column, message: message)
    }
}
