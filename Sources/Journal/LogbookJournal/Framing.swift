// SPDX-License-Identifier: MIT
/// LevelDB-style physical framing (docs/journal.md, "Physical format").
///
/// A segment is a run of 32 KiB blocks. A physical record is
/// `masked CRC-32C(type ‖ data) u32 LE · length u16 LE · type u8 · data` and never crosses a
/// block boundary: a logical record that does not fit is split into FIRST/MIDDLE/LAST
/// fragments. Fewer than 7 bytes left in a block are a zero trailer. Type 0 with length 0
/// and CRC 0 is preallocated space: the end of the data.
enum Framing {
    static let blockSize = 32 * 1024
    static let headerSize = 7

    enum FragmentType: UInt8 {
        case zero = 0, full = 1, first = 2, middle = 3, last = 4
    }

    /// Appends the framed `payload` to `out`, as if written at file offset `offset`.
    /// Returns the new offset.
    @discardableResult
    static func frame(_ payload: [UInt8], at offset: Int, into out: inout [UInt8], blockSize: Int = blockSize) -> Int {
        var pos = offset
        var start = 0
        var begin = true
        repeat {
            let leftover = blockSize - pos % blockSize
            if leftover < headerSize {
                out.append(contentsOf: repeatElement(0, count: leftover))
                pos += leftover
                continue
            }
            let avail = leftover - headerSize
            let n = min(avail, payload.count - start)
            let end = start + n == payload.count
            let type: FragmentType = begin && end ? .full : begin ? .first : end ? .last : .middle
            // The CRC is computed inside the closure: a pointer returned out of withUnsafeBytes
            // dangles, and -O builds then read garbage (debug and release disagreed).
            var crc = withUnsafeBytes(of: type.rawValue) { CRC32C.update(0, $0) }
            crc = payload.withUnsafeBytes { CRC32C.update(crc, UnsafeRawBufferPointer(rebasing: $0[start..<(start + n)])) }
            let masked = CRC32C.mask(crc)
            out.append(contentsOf: [
                UInt8(masked & 0xFF), UInt8((masked >> 8) & 0xFF), UInt8((masked >> 16) & 0xFF), UInt8(masked >> 24),
                UInt8(n & 0xFF), UInt8(n >> 8), type.rawValue,
            ])
            out.append(contentsOf: payload[start..<(start + n)])
            pos += headerSize + n
            start += n
            begin = false
            if end { break }
        } while true
        return pos
    }

    /// Why a scan stopped.
    enum Stop: Equatable, Sendable {
        /// End of file exactly at a record boundary, or preallocated (zero) space.
        case clean
        /// A header or fragment run cut short by the end of the file (a torn write).
        case truncated
        /// A CRC mismatch, an impossible length or type, or non-zero bytes in a trailer.
        case corrupt(String)
    }

    /// One logical record found by ``scan(_:from:blockSize:)``.
    struct Found {
        var payload: [UInt8]
        /// File offsets of the first header byte and one past the last data byte.
        var start: Int
        var end: Int
    }

    /// Reads logical records from `bytes` starting at `offset` (a record boundary), stopping at
    /// the first bad or torn physical record. `validEnd` is the end of the last complete record.
    static func scan(
        _ bytes: [UInt8], from offset: Int = 0, blockSize: Int = blockSize,
        limit: Int = Int.max, _ body: (Found) throws -> Bool
    ) rethrows -> (validEnd: Int, stop: Stop) {
        var pos = offset
        var validEnd = offset
        var assembling: [UInt8] = []
        var recordStart = -1
        let count = bytes.count
        var delivered = 0
        while true {
            if delivered >= limit { return (validEnd, .clean) }
            let leftover = blockSize - pos % blockSize
            if leftover < headerSize {
                if pos + leftover > count { return (validEnd, recordStart < 0 && allZero(bytes, pos, count) ? .clean : .truncated) }
                if !allZero(bytes, pos, pos + leftover) { return (validEnd, .corrupt("non-zero block trailer at \(pos)")) }
                pos += leftover
                continue
            }
            if pos == count { return (validEnd, recordStart < 0 ? .clean : .truncated) }
            if pos + headerSize > count {
                return (validEnd, recordStart < 0 && allZero(bytes, pos, count) ? .clean : .truncated)
            }
            let masked = UInt32(bytes[pos]) | UInt32(bytes[pos + 1]) << 8 | UInt32(bytes[pos + 2]) << 16
                | UInt32(bytes[pos + 3]) << 24
            let length = Int(bytes[pos + 4]) | Int(bytes[pos + 5]) << 8
            let rawType = bytes[pos + 6]
            if rawType == 0 && length == 0 && masked == 0 {
                // Preallocated space ends the data, but only if the rest of the block is zero too.
                if recordStart >= 0 { return (validEnd, .truncated) }
                return (validEnd, allZero(bytes, pos, min(count, pos + leftover)) ? .clean : .corrupt("garbage after end at \(pos)"))
            }
            guard let type = FragmentType(rawValue: rawType), type != .zero else {
                return (validEnd, .corrupt("bad fragment type \(rawType) at \(pos)"))
            }
            guard headerSize + length <= leftover else { return (validEnd, .corrupt("fragment crosses block at \(pos)")) }
            if pos + headerSize + length > count { return (validEnd, .truncated) }
            var crc = withUnsafeBytes(of: rawType) { CRC32C.update(0, $0) }
            crc = bytes.withUnsafeBytes {
                CRC32C.update(crc, UnsafeRawBufferPointer(rebasing: $0[(pos + headerSize)..<(pos + headerSize + length)]))
            }
            guard CRC32C.mask(crc) == masked else { return (validEnd, .corrupt("CRC mismatch at \(pos)")) }
            let data = bytes[(pos + headerSize)..<(pos + headerSize + length)]
            switch type {
            case .full, .first:
                guard recordStart < 0 else { return (validEnd, .corrupt("unexpected \(type) at \(pos)")) }
                recordStart = pos
                assembling = Array(data)
            case .middle, .last:
                guard recordStart >= 0 else { return (validEnd, .corrupt("unexpected \(type) at \(pos)")) }
                assembling.append(contentsOf: data)
            case .zero:
                return (validEnd, .corrupt("zero type at \(pos)"))
            }
            pos += headerSize + length
            if type == .full || type == .last {
                let found = Found(payload: assembling, start: recordStart, end: pos)
                recordStart = -1
                assembling = []
                validEnd = pos
                delivered += 1
                if try !body(found) { return (validEnd, .clean) }
            }
        }
    }

    static func allZero(_ bytes: [UInt8], _ from: Int, _ to: Int) -> Bool {
        var i = from
        while i < to {
            if bytes[i] != 0 { return false }
            i += 1
        }
        return true
    }
}
