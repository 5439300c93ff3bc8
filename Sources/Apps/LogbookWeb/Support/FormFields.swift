// SPDX-License-Identifier: MIT
internal import LogbookPOSIX

/// `application/x-www-form-urlencoded` fields (what the pages' forms post).
package struct FormFields: Sendable {
    package private(set) var pairs: [(String, String)] = []

    /// Parses `a=1&b=x+y%21`; a malformed percent escape is kept as written.
    package init(_ body: some Collection<UInt8>) {
        for part in body.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let kv = part.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            pairs.append((Self.decode(kv[0]), kv.count > 1 ? Self.decode(kv[1]) : ""))
        }
    }

    /// The first value of `name`.
    package subscript(_ name: String) -> String? { pairs.first { $0.0 == name }?.1 }

    /// Every value of `name`, in order (a checkbox after its hidden `off`).
    package func values(_ name: String) -> [String] { pairs.filter { $0.0 == name }.map(\.1) }

    /// Percent-decodes `+` and `%XX`; invalid UTF-8 becomes U+FFFD.
    static func decode(_ bytes: some Collection<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i != bytes.endIndex {
            let b = bytes[i]
            if b == UInt8(ascii: "+") {
                out.append(32)
            } else if b == UInt8(ascii: "%"), let h = bytes.index(i, offsetBy: 1, limitedBy: bytes.endIndex), h != bytes.endIndex,
                let l = bytes.index(h, offsetBy: 1, limitedBy: bytes.endIndex), l != bytes.endIndex,
                let hi = Hex.digit(bytes[h]), let lo = Hex.digit(bytes[l])
            {
                out.append(hi << 4 | lo)
                i = l
            } else {
                out.append(b)
            }
            i = bytes.index(after: i)
        }
        return String(decoding: out, as: UTF8.self)
    }
}
