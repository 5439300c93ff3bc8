// SPDX-License-Identifier: MIT
public import LogbookCore

extension JSONTokenizer {
    /// Reads the value that starts with `token` (already read) into a ``JSONValue``: for the
    /// small objects of a location history (one location, one GeoJSON feature).
    public mutating func value(startingWith token: JSONToken) throws(ImportIssue) -> JSONValue {
        switch token {
        case .string(let s): return .string(s)
        case .number(let n): return .number(n)
        case .bool(let b): return .bool(b)
        case .null: return .null
        case .key, .endObject, .endArray: throw ImportIssue(line: tokenLine, "expected a value")
        case .beginArray:
            var items: [JSONValue] = []
            while true {
                guard let t = try next() else { throw ImportIssue(line: input.line, "the file ends inside an array (truncated?)") }
                if t == .endArray { return .array(items) }
                items.append(try value(startingWith: t))
            }
        case .beginObject:
            var members: [(String, JSONValue)] = []
            while true {
                guard let t = try next() else { throw ImportIssue(line: input.line, "the file ends inside an object (truncated?)") }
                if t == .endObject { return .object(members) }
                guard case .key(let k) = t, let v = try next() else { throw ImportIssue(line: tokenLine, "expected a member") }
                members.append((k, try value(startingWith: v)))
            }
        }
    }

    /// The next token, which must be `expected` (else an issue naming `what`).
    public mutating func expect(_ expected: JSONToken, _ what: String) throws(ImportIssue) {
        guard let t = try next(), t == expected else { throw ImportIssue(line: tokenLine, "expected \(what)") }
    }
}
