// SPDX-License-Identifier: MIT
extension TimeZoneRules {
    /// Reads a TZif file's bytes (version 1 data, or the 64-bit block and footer of v2+);
    /// nil when they are not TZif.
    public init?(name: String, tzif bytes: [UInt8]) {
        guard let first = Header(bytes, at: 0) else { return nil }
        var start = 0, header = first, timeSize = 4
        if first.version >= 2 {
            start = first.end(timeSize: 4)
            guard let second = Header(bytes, at: start) else { return nil }
            header = second
            timeSize = 8
        }
        let end = start + header.end(timeSize: timeSize)
        guard bytes.count >= end else { return nil }
        var at = start + 44
        func int(_ size: Int) -> Int64 {
            var v: UInt64 = 0
            for i in 0..<size { v = v << 8 | UInt64(bytes[at + i]) }
            at += size
            return size == 4 ? Int64(Int32(bitPattern: UInt32(v))) : Int64(bitPattern: v)
        }
        var times: [Int64] = []
        for _ in 0..<header.timeCount { times.append(int(timeSize)) }
        var indices: [Int] = []
        for _ in 0..<header.timeCount {
            indices.append(Int(bytes[at]))
            at += 1
        }
        var raw: [(offset: Int, isDST: Bool, abbr: Int)] = []
        for _ in 0..<header.typeCount {
            let offset = Int(int(4))
            raw.append((offset, bytes[at] != 0, Int(bytes[at + 1])))
            at += 2
        }
        let chars = Array(bytes[at..<(at + header.charCount)])
        guard indices.allSatisfy({ $0 < raw.count }), !raw.isEmpty else { return nil }
        let kinds = raw.map { r -> Kind in
            let tail = r.abbr < chars.count ? chars[r.abbr...] : []
            return Kind(offset: r.offset, isDST: r.isDST, abbreviation: String(decoding: tail.prefix { $0 != 0 }, as: UTF8.self))
        }
        var footer: PosixZoneRule?
        if header.version >= 2, end < bytes.count, bytes[end] == 10 {
            let text = bytes[(end + 1)...].prefix { $0 != 10 }
            footer = PosixZoneRule(String(decoding: text, as: UTF8.self))
        }
        // RFC 8536: the first non-DST kind (else the first) holds before the first transition.
        let initial = raw.firstIndex { !$0.isDST } ?? 0
        self.init(name: name, transitions: zip(times, indices).map { ($0, $1) }, kinds: kinds, initialKind: initial, footer: footer)
    }

    private struct Header {
        var version: Int
        var isutCount: Int, isstdCount: Int, leapCount: Int, timeCount: Int, typeCount: Int, charCount: Int

        init?(_ b: [UInt8], at o: Int) {
            guard b.count >= o + 44, b[o] == 84, b[o + 1] == 90, b[o + 2] == 105, b[o + 3] == 102 else { return nil }
            version = b[o + 4] == 0 ? 1 : Int(b[o + 4]) - 48
            func count(_ i: Int) -> Int {
                let p = o + 20 + i * 4
                return Int(b[p]) << 24 | Int(b[p + 1]) << 16 | Int(b[p + 2]) << 8 | Int(b[p + 3])
            }
            (isutCount, isstdCount, leapCount, timeCount, typeCount, charCount) = (count(0), count(1), count(2), count(3), count(4), count(5))
        }

        /// Where this block's data ends.
        func end(timeSize: Int) -> Int {
            44 + timeCount * (timeSize + 1) + typeCount * 6 + charCount + leapCount * (timeSize + 4) + isstdCount + isutCount
        }
    }
}
