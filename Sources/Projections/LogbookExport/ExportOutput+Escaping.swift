// SPDX-License-Identifier: MIT
extension ExportOutput {
    /// Appends `s` escaped for XML text or a double-quoted attribute. Characters XML 1.0
    /// forbids (C0 controls other than tab, LF, CR) become U+FFFD rather than breaking the file.
    public func xml(_ s: String) {
        for u in s.unicodeScalars {
            switch u {
            case "&": text("&amp;")
            case "<": text("&lt;")
            case ">": text("&gt;")
            case "\"": text("&quot;")
            case "'": text("&apos;")
            case "\t", "\n", "\r": byte(UInt8(u.value))
            case _ where u.value < 0x20 || u.value == 0xFFFE || u.value == 0xFFFF: text("\u{FFFD}")
            default: scalar(u)
            }
        }
    }

    /// Appends `s` as a JSON string literal, quotes included (RFC 8259).
    public func jsonString(_ s: String) {
        byte(UInt8(ascii: "\""))
        for u in s.unicodeScalars {
            switch u {
            case "\"": text("\\\"")
            case "\\": text("\\\\")
            case "\n": text("\\n")
            case "\r": text("\\r")
            case "\t": text("\\t")
            case _ where u.value < 0x20:
                text("\\u00")
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                byte(hex[Int(u.value >> 4)])
                byte(hex[Int(u.value & 0xF)])
            default: scalar(u)
            }
        }
        byte(UInt8(ascii: "\""))
    }

    /// Appends `s` as one CSV field (RFC 4180): quoted, with quotes doubled, when it holds a
    /// comma, a quote or a line break; as is otherwise.
    public func csvField(_ s: String) {
        let needsQuotes = s.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 10 || $0 == 13 }
        guard needsQuotes else { return text(s) }
        byte(UInt8(ascii: "\""))
        for b in s.utf8 {
            if b == UInt8(ascii: "\"") { byte(b) }
            byte(b)
        }
        byte(UInt8(ascii: "\""))
    }

    private func scalar(_ u: Unicode.Scalar) {
        UTF8.encode(u) { byte($0) }
    }
}
