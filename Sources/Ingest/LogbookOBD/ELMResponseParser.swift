// SPDX-License-Identifier: MIT
/// Parses an ELM327 reply, with or without spaces, echo and linefeeds, single or multi-frame.
///
/// An ISO-TP (CAN) reply longer than one frame comes with headers off as a length line and
/// numbered frames: `014` / `0: 490201575030` / `1: 5A5A5A39395A54` / `2: 53333930303030`:
/// 0x14 = 20 bytes, frame 0 carries 6 and each further frame 7 (the last one padded). Frames
/// must come in order (0…F, then 0 again), and together hold at least the announced length;
/// anything else is refused, never patched.
public enum ELMResponseParser {
    /// The most a reply may hold before the prompt; beyond it the adapter is babbling.
    public static let maximumReplyBytes = 4096

    /// Parses `raw` (everything the adapter sent before `>`) as the reply to `command`.
    ///
    /// - Parameter data: whether `command` is an OBD request (hex data expected) rather
    ///   than an AT command (text expected).
    public static func parse(_ raw: [UInt8], command: String, data: Bool) -> ELMResponse {
        guard raw.count <= maximumReplyBytes else { return .invalid(.tooLong) }
        var lines: [[UInt8]] = []
        var line: [UInt8] = []
        for b in raw {
            switch b {
            case 13, 10:
                if !line.isEmpty { lines.append(line) }
                line.removeAll(keepingCapacity: true)
            case 0: continue  // some adapters send NULs around the prompt
            case 9, 32...126: line.append(b)
            default: return .invalid(.notText)
            }
        }
        if !line.isEmpty { lines.append(line) }
        var texts = lines.map { trimmed($0) }.filter { !$0.isEmpty }
        // The echo (while echo is on) is the command itself on the first line.
        if let first = texts.first, compact(first) == compact(Array(command.utf8)) { texts.removeFirst() }
        // Progress lines: `SEARCHING...`, `BUS INIT: ...OK`.
        texts.removeAll { t in
            let c = compact(t)
            return c.starts(with: Array("SEARCHING".utf8)) || (c.starts(with: Array("BUSINIT".utf8)) && c.ends(with: Array("OK".utf8)))
        }
        guard !texts.isEmpty else { return .invalid(.empty) }
        var statuses: [ELMResponse] = []
        var rest: [[UInt8]] = []
        for t in texts {
            if let s = status(t) { statuses.append(s) } else { rest.append(t) }
        }
        if !data {
            if rest.isEmpty, let s = statuses.first { return s }
            return .text(texts.map { String(decoding: $0, as: UTF8.self) })
        }
        // An error line beside data puts the data in doubt; `NO DATA` from one ECU while
        // another answered does not.
        if let s = statuses.first(where: { $0 != .noData && $0 != .unableToConnect }) { return s }
        if rest.isEmpty { return statuses.first ?? .invalid(.empty) }
        return messages(rest)
    }

    /// Joins data lines into messages (ISO-TP frames into one).
    static func messages(_ lines: [[UInt8]]) -> ELMResponse {
        var out: [[UInt8]] = []
        var multi: (length: Int, next: UInt8, bytes: [UInt8])?
        func finish() -> ELMRejection? {
            guard let m = multi else { return nil }
            multi = nil
            guard m.bytes.count >= m.length else { return .missingFrame }
            out.append(Array(m.bytes.prefix(m.length)))
            return nil
        }
        for line in lines {
            let c = compact(line)
            if let colon = c.firstIndex(of: 58) {  // "N:" frame
                guard colon == 1, let index = hexValue(c[0]) else { return .invalid(.notHex) }
                guard multi != nil else { return .invalid(.frameWithoutLength) }
                guard index == multi!.next else { return .invalid(.frameOrder) }
                guard let bytes = hexBytes(c[2...]), !bytes.isEmpty else { return .invalid(.notHex) }
                multi!.bytes += bytes
                multi!.next = (index + 1) & 0xF
                guard multi!.bytes.count <= ELMResponseParser.maximumReplyBytes else { return .invalid(.tooLong) }
            } else if c.count == 3, let hi = hexValue(c[0]), let mid = hexValue(c[1]), let lo = hexValue(c[2]) {
                if let r = finish() { return .invalid(r) }
                let length = Int(hi) << 8 | Int(mid) << 4 | Int(lo)
                guard length > 0 else { return .invalid(.wrongLength) }
                multi = (length, 0, [])
            } else {
                if let r = finish() { return .invalid(r) }
                guard let bytes = hexBytes(c[...]), !bytes.isEmpty else { return .invalid(.notHex) }
                out.append(bytes)
            }
        }
        if let r = finish() { return .invalid(r) }
        return .messages(out)
    }

    /// The status a line stands for, if it is one.
    static func status(_ line: [UInt8]) -> ELMResponse? {
        let c = String(decoding: compact(line), as: UTF8.self)
        switch c {
        case "NODATA": return .noData
        case "UNABLETOCONNECT": return .unableToConnect
        case "STOPPED": return .stopped
        case "?": return .unknownCommand
        case "OK": return .ok
        case "CANERROR", "BUSERROR", "BUSBUSY", "FBERROR", "DATAERROR", "<DATAERROR", "RXERROR", "<RXERROR",
            "BUFFERFULL", "LVRESET", "ACTALERT":
            return .busError(String(decoding: line, as: UTF8.self))
        default:
            if c.hasPrefix("BUSINIT") && c.hasSuffix("ERROR") { return .busError(String(decoding: line, as: UTF8.self)) }
            if c.count == 5, c.hasPrefix("ERR"), c.dropFirst(3).allSatisfy(\.isNumber) { return .busError(String(decoding: line, as: UTF8.self)) }
            return nil
        }
    }

    /// The line without leading and trailing blanks.
    private static func trimmed(_ line: [UInt8]) -> [UInt8] {
        var s = line[...]
        while let f = s.first, f == 32 || f == 9 { s = s.dropFirst() }
        while let l = s.last, l == 32 || l == 9 { s = s.dropLast() }
        return Array(s)
    }

    /// Upper case, without blanks: `41 0c 14 5f` and `410C145F` compare equal.
    static func compact(_ line: [UInt8]) -> [UInt8] {
        line.compactMap { b in b == 32 || b == 9 ? nil : (97...122).contains(b) ? b - 32 : b }
    }

    static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: c - 48
        case 65...70: c - 55
        default: nil
        }
    }

    /// Pairs of hex digits as bytes; nil for an odd count or a non-hex digit.
    static func hexBytes(_ digits: ArraySlice<UInt8>) -> [UInt8]? {
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count / 2)
        var i = digits.startIndex
        while i < digits.endIndex {
            guard let hi = hexValue(digits[i]), let lo = hexValue(digits[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}
