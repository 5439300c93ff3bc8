// SPDX-License-Identifier: MIT
/// One step of a JSON document, as ``JSONTokenizer`` reports it.
public enum JSONToken: Sendable, Hashable {
    case beginObject, endObject, beginArray, endArray
    /// An object member's name (its value follows).
    case key(String)
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
}

/// A streaming JSON tokenizer (RFC 8259): one token at a time from a ``ByteInput``, holding
/// only the nesting (for the syntax) and the token being read, so a 1 GB location history
/// reads in flat memory. Malformed or truncated input is an ``ImportIssue`` naming the line.
public struct JSONTokenizer {
    public var input: ByteInput
    private enum Frame { case object, array }
    private var stack: [Frame] = []
    /// What may come next inside the innermost container.
    private var expectValue = true
    private var expectKey = false
    private var afterComma = false
    private var done = false
    private var buffer: [UInt8] = []
    /// The line the last token started on.
    public private(set) var tokenLine = 1
    /// Containers open at this point.
    public var depth: Int { stack.count }

    public init(_ input: ByteInput) { self.input = input }

    /// The next token, or nil after the top-level value.
    public mutating func next() throws(ImportIssue) -> JSONToken? {
        try skipSpace()
        tokenLine = input.line
        guard let b = try input.peek() else {
            if stack.isEmpty, done { return nil }
            throw ImportIssue(line: input.line, done ? "unexpected end" : "the file ends inside the JSON document (truncated?)")
        }
        if done { throw ImportIssue(line: input.line, "text after the JSON document") }
        if b == 44 {  // ','
            guard !expectValue, !expectKey, !stack.isEmpty, !afterComma else { throw unexpected(b) }
            _ = try input.next()
            afterComma = true
            if stack.last == .object { expectKey = true } else { expectValue = true }
            return try next()
        }
        if b == 125 || b == 93 {  // '}' ']'
            let frame: Frame = b == 125 ? .object : .array
            guard stack.last == frame, !afterComma, !expectKey, !expectValue else { throw unexpected(b) }
            // An empty container, or after a complete member/element.
            _ = try input.next()
            stack.removeLast()
            valueEnded()
            return frame == .object ? .endObject : .endArray
        }
        if expectKey {
            guard b == 34 else { throw ImportIssue(line: input.line, "expected a member name, found \(Self.show(b))") }
            _ = try input.next()
            let key = try readString()
            try skipSpace()
            guard try input.next() == 58 else { throw ImportIssue(line: input.line, "expected : after \"\(key)\"") }
            expectKey = false
            expectValue = true
            afterComma = false
            return .key(key)
        }
        guard expectValue else { throw ImportIssue(line: input.line, "expected , or a closing bracket, found \(Self.show(b))") }
        afterComma = false
        _ = try input.next()
        switch b {
        case 123:
            stack.append(.object)
            expectValue = false
            expectKey = true
            // `{}`: the next token may close it at once.
            try skipSpace()
            if try input.peek() == 125 { expectKey = false }
            return .beginObject
        case 91:
            stack.append(.array)
            expectValue = true
            try skipSpace()
            if try input.peek() == 93 { expectValue = false }
            return .beginArray
        case 34:
            let s = try readString()
            valueEnded()
            return .string(s)
        case 116: try literal("rue"); valueEnded(); return .bool(true)
        case 102: try literal("alse"); valueEnded(); return .bool(false)
        case 110: try literal("ull"); valueEnded(); return .null
        case 45, 48...57:
            let n = try readNumber(first: b)
            valueEnded()
            return .number(n)
        default:
            throw unexpected(b)
        }
    }

    /// Skips the value that starts with `token` (already read), however deep.
    public mutating func skipValue(_ token: JSONToken) throws(ImportIssue) {
        guard token == .beginObject || token == .beginArray else { return }
        let target = depth - 1
        while depth > target {
            guard try next() != nil else { throw ImportIssue(line: input.line, "the file ends inside the JSON document (truncated?)") }
        }
    }

    private mutating func valueEnded() {
        expectValue = false
        expectKey = false
        if stack.isEmpty { done = true }
    }

    private mutating func skipSpace() throws(ImportIssue) {
        while let b = try input.peek(), b == 32 || b == 9 || b == 10 || b == 13 { _ = try input.next() }
    }

    private mutating func literal(_ rest: String) throws(ImportIssue) {
        for c in rest.utf8 {
            guard try input.next() == c else { throw ImportIssue(line: input.line, "malformed literal") }
        }
    }

    private mutating func readNumber(first: UInt8) throws(ImportIssue) -> Double {
        buffer.removeAll(keepingCapacity: true)
        buffer.append(first)
        while let b = try input.peek(), (b >= 48 && b <= 57) || b == 46 || b == 101 || b == 69 || b == 43 || b == 45 {
            buffer.append(b)
            _ = try input.next()
        }
        guard let n = Double(String(decoding: buffer, as: UTF8.self)), n.isFinite else {
            throw ImportIssue(line: input.line, "malformed number \(String(decoding: buffer, as: UTF8.self))")
        }
        return n
    }

    /// After the opening quote: the string's content, escapes decoded.
    private mutating func readString() throws(ImportIssue) -> String {
        buffer.removeAll(keepingCapacity: true)
        while true {
            guard let b = try input.next() else { throw ImportIssue(line: input.line, "the file ends inside a string (truncated?)") }
            if b == 34 { break }
            if b < 32 { throw ImportIssue(line: input.line, "control character inside a string") }
            guard b == 92 else {
                buffer.append(b)
                continue
            }
            guard let e = try input.next() else { throw ImportIssue(line: input.line, "the file ends inside a string (truncated?)") }
            switch e {
            case 34, 92, 47: buffer.append(e)
            case 98: buffer.append(8)
            case 102: buffer.append(12)
            case 110: buffer.append(10)
            case 114: buffer.append(13)
            case 116: buffer.append(9)
            case 117:
                var v = try hex4()
                if (0xD800..<0xDC00).contains(v), try input.next() == 92, try input.next() == 117 {
                    let low = try hex4()
                    v = 0x10000 + ((v - 0xD800) << 10) + (low &- 0xDC00)
                }
                let scalar = Unicode.Scalar(v) ?? "\u{FFFD}"
                buffer.append(contentsOf: Array(String(Character(scalar)).utf8))
            default: throw ImportIssue(line: input.line, "bad escape \\\(Self.show(e))")
            }
        }
        return String(decoding: buffer, as: UTF8.self)
    }

    private mutating func hex4() throws(ImportIssue) -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard let c = try input.next(), let d = UInt32(String(UnicodeScalar(c)), radix: 16) else {
                throw ImportIssue(line: input.line, "bad \\u escape")
            }
            v = v * 16 + d
        }
        return v
    }

    private func unexpected(_ b: UInt8) -> ImportIssue {
        ImportIssue(line: input.line, "unexpected \(Self.show(b))")
    }

    private static func show(_ b: UInt8) -> String {
        b >= 32 && b < 127 ? "'\(String(UnicodeScalar(b)))'" : "byte 0x\(String(b, radix: 16))"
    }
}
