// SPDX-License-Identifier: MIT

/// Numbers as people type them, the same in the CLI and the web forms: `45.3`, or with a
/// decimal comma `45,3`; a sign in front; no thousands separators (`1.234,5` and `1,234.5`
/// are refused: which mark is the decimal one is a guess), no exponent, no `inf`/`nan`.
public enum DecimalInput {
    /// The number `text` means, nil when it is none or ambiguous. Spaces around it are ignored.
    public static func parse(_ text: String) -> Double? {
        var s = Substring(text)
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        var body = s
        if body.first == "-" || body.first == "+" { body.removeFirst() }
        let separators = body.filter { $0 == "." || $0 == "," }
        guard !body.isEmpty, separators.count <= 1, body.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == ",") }),
            body.contains(where: \.isNumber)
        else { return nil }
        let normal = String(s).replacingComma()
        guard let value = Double(normal), value.isFinite else { return nil }
        return value
    }
}

extension String {
    fileprivate func replacingComma() -> String { String(map { $0 == "," ? "." : $0 }) }
}
