// SPDX-License-Identifier: MIT
/// One step of an XML document, as ``XMLTokenizer`` reports it.
public enum XMLToken: Sendable, Hashable {
    /// `<name a="v">` (or `<name/>`, then `.end` follows at once).
    case start(name: String, attributes: [(String, String)])
    /// `</name>`.
    case end(name: String)
    /// Character data between tags, entities decoded (whitespace-only runs are skipped).
    case text(String)

    public static func == (a: XMLToken, b: XMLToken) -> Bool {
        switch (a, b) {
        case (.start(let n1, let a1), .start(let n2, let a2)): n1 == n2 && a1.elementsEqual(a2, by: { $0 == $1 })
        case (.end(let n1), .end(let n2)): n1 == n2
        case (.text(let t1), .text(let t2)): t1 == t2
        default: false
        }
    }

    public func hash(into h: inout Hasher) {
        switch self {
        case .start(let n, let attributes):
            h.combine(0)
            h.combine(n)
            for (k, v) in attributes { h.combine(k); h.combine(v) }
        case .end(let n): h.combine(1); h.combine(n)
        case .text(let t): h.combine(2); h.combine(t)
        }
    }
}

/// A streaming XML tokenizer: pulls bytes from a ``ByteInput`` and returns one token at a
/// time, holding only the open elements' names and the token being read. Enough XML 1.0 for
/// GPX: elements, attributes in either quote, the five predefined entities and character
/// references, CDATA, comments, processing instructions and a DOCTYPE (skipped). Anything
/// malformed — a truncated file, a mismatched end tag, an attribute without quotes — is an
/// ``ImportIssue`` naming the line.
public struct XMLTokenizer {
    public var input: ByteInput
    /// Names of the elements open at this point, outermost first.
    public private(set) var open: [String] = []
    private var pendingEnd: String?
    private var text: [UInt8] = []
    /// The line the last token started on.
    public private(set) var tokenLine = 1

    /// Starts reading `input`.
    public init(_ input: ByteInput) {
        self.input = input
    }

    /// The next token, or nil at the end of a well-formed document.
    public mutating func next() throws(ImportIssue) -> XMLToken? {
        if let name = pendingEnd {
            pendingEnd = nil
            open.removeLast()
            return .end(name: name)
        }
        while true {
            text.removeAll(keepingCapacity: true)
            var onlySpace = true
            tokenLine = input.line
            while let b = try input.peek(), b != 60 {  // '<'
                _ = try input.next()
                if b == 38 {
                    try appendEntity()
                    onlySpace = false
                } else {
                    if b != 32, b != 9, b != 10, b != 13 { onlySpace = false }
                    text.append(b)
                }
            }
            if !onlySpace {
                guard !open.isEmpty else { throw ImportIssue(line: tokenLine, "text outside the document element") }
                return .text(String(decoding: text, as: UTF8.self))
            }
            guard try input.next() != nil else {
                if let innermost = open.last { throw ImportIssue(line: input.line, "the file ends inside <\(innermost)> (truncated?)") }
                return nil
            }
            tokenLine = input.line
            if let token = try markup() { return token }
        }
    }

    /// After `<`: a tag, or markup to skip (nil).
    private mutating func markup() throws(ImportIssue) -> XMLToken? {
        guard let b = try input.peek() else { throw truncated() }
        switch b {
        case 63:  // <? … ?>
            try skip(until: [63, 62])
            return nil
        case 33:  // <! comment, CDATA or DOCTYPE
            _ = try input.next()
            if try input.peek() == 45 {
                try expect("--")
                try skip(until: [45, 45, 62])
                return nil
            }
            if try input.peek() == 91 {
                try expect("[CDATA[")
                text.removeAll(keepingCapacity: true)
                try collect(until: [93, 93, 62])
                guard !open.isEmpty else { throw ImportIssue(line: tokenLine, "CDATA outside the document element") }
                return .text(String(decoding: text, as: UTF8.self))
            }
            try skipDeclaration()
            return nil
        case 47:  // </name>
            _ = try input.next()
            let name = try readName()
            try skipSpace()
            guard try input.next() == 62 else { throw ImportIssue(line: input.line, "expected > after </\(name)") }
            guard let expected = open.last else { throw ImportIssue(line: tokenLine, "</\(name)> without an open element") }
            guard expected == name else { throw ImportIssue(line: tokenLine, "</\(name)> closes <\(expected)>") }
            open.removeLast()
            return .end(name: name)
        default:
            return try startTag()
        }
    }

    private mutating func startTag() throws(ImportIssue) -> XMLToken {
        let name = try readName()
        var attributes: [(String, String)] = []
        while true {
            try skipSpace()
            guard let b = try input.next() else { throw truncated() }
            if b == 62 { break }
            if b == 47 {
                guard try input.next() == 62 else { throw ImportIssue(line: input.line, "expected /> in <\(name)>") }
                pendingEnd = name
                break
            }
            let key = String(decoding: [b] + (try readNameBytes()), as: UTF8.self)
            try skipSpace()
            guard try input.next() == 61 else { throw ImportIssue(line: input.line, "attribute \(key) of <\(name)> has no value") }
            try skipSpace()
            guard let quote = try input.next(), quote == 34 || quote == 39 else {
                throw ImportIssue(line: input.line, "attribute \(key) of <\(name)>: value not quoted")
            }
            text.removeAll(keepingCapacity: true)
            while true {
                guard let c = try input.next() else { throw truncated() }
                if c == quote { break }
                if c == 60 { throw ImportIssue(line: input.line, "< inside the value of attribute \(key)") }
                if c == 38 { try appendEntity() } else { text.append(c) }
            }
            attributes.append((key, String(decoding: text, as: UTF8.self)))
        }
        open.append(name)
        return .start(name: name, attributes: attributes)
    }

    private mutating func readName() throws(ImportIssue) -> String {
        let bytes = try readNameBytes()
        guard !bytes.isEmpty else { throw ImportIssue(line: input.line, "expected an element name after <") }
        return String(decoding: bytes, as: UTF8.self)
    }

    private mutating func readNameBytes() throws(ImportIssue) -> [UInt8] {
        var out: [UInt8] = []
        while let b = try input.peek(), !Self.endsName(b) {
            out.append(b)
            _ = try input.next()
        }
        return out
    }

    private static func endsName(_ b: UInt8) -> Bool {
        b == 32 || b == 9 || b == 10 || b == 13 || b == 62 || b == 47 || b == 61 || b == 60
    }

    private mutating func skipSpace() throws(ImportIssue) {
        while let b = try input.peek(), b == 32 || b == 9 || b == 10 || b == 13 { _ = try input.next() }
    }

    private mutating func expect(_ s: String) throws(ImportIssue) {
        for c in s.utf8 {
            guard try input.next() == c else { throw ImportIssue(line: input.line, "malformed markup (expected \(s))") }
        }
    }

    /// Skips through `terminator` (e.g. `-->`).
    private mutating func skip(until terminator: [UInt8]) throws(ImportIssue) {
        var matched = 0
        while matched < terminator.count {
            guard let b = try input.next() else { throw truncated() }
            matched = b == terminator[matched] ? matched + 1 : (b == terminator[0] ? 1 : 0)
        }
    }

    /// Appends bytes to `text` through `terminator` (exclusive).
    private mutating func collect(until terminator: [UInt8]) throws(ImportIssue) {
        var matched = 0
        while matched < terminator.count {
            guard let b = try input.next() else { throw truncated() }
            if b == terminator[matched] {
                matched += 1
            } else {
                text.append(contentsOf: terminator[0..<matched])
                matched = 0
                if b == terminator[0] { matched = 1 } else { text.append(b) }
            }
        }
    }

    /// `<!DOCTYPE …>` with an optional internal subset in brackets.
    private mutating func skipDeclaration() throws(ImportIssue) {
        var depth = 0
        while let b = try input.next() {
            if b == 91 { depth += 1 } else if b == 93 { depth -= 1 } else if b == 62, depth <= 0 { return }
        }
        throw truncated()
    }

    /// After `&`: a predefined entity or a character reference, appended to `text`.
    private mutating func appendEntity() throws(ImportIssue) {
        var name: [UInt8] = []
        while let b = try input.next(), b != 59 {
            name.append(b)
            guard name.count <= 10 else { throw ImportIssue(line: input.line, "malformed entity &\(String(decoding: name, as: UTF8.self))") }
        }
        let s = String(decoding: name, as: UTF8.self)
        switch s {
        case "amp": text.append(38)
        case "lt": text.append(60)
        case "gt": text.append(62)
        case "quot": text.append(34)
        case "apos": text.append(39)
        default:
            var scalar: UInt32?
            if s.hasPrefix("#x") { scalar = UInt32(s.dropFirst(2), radix: 16) } else if s.hasPrefix("#") { scalar = UInt32(s.dropFirst()) }
            guard let v = scalar, let u = Unicode.Scalar(v) else { throw ImportIssue(line: input.line, "unknown entity &\(s);") }
            text.append(contentsOf: Array(String(Character(u)).utf8))
        }
    }

    private func truncated() -> ImportIssue {
        ImportIssue(line: input.line, open.last.map { "the file ends inside <\($0)> (truncated?)" } ?? "the file ends inside a tag (truncated?)")
    }
}
