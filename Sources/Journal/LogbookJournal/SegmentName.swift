// SPDX-License-Identifier: MIT
internal import LogbookPOSIX
/// `<firstSeq, 16 hex>-<segment number, 8 hex>.seg`: segments are named by the first sequence
/// number they may hold; the segment number breaks ties between segments that hold no record.
/// Fixed-width hex makes the lexical order the journal order.
struct SegmentName: Comparable, Hashable, Sendable {
    var firstSequence: UInt64
    var number: UInt32

    static let suffix = ".seg"

    var fileName: String { Hex.encode(firstSequence, width: 16) + "-" + Hex.encode(UInt64(number), width: 8) + Self.suffix }

    init(firstSequence: UInt64, number: UInt32) {
        self.firstSequence = firstSequence
        self.number = number
    }

    init?(fileName: String) {
        guard fileName.hasSuffix(Self.suffix) else { return nil }
        let parts = fileName.dropLast(Self.suffix.count).split(separator: "-")
        guard parts.count == 2, parts[0].count == 16, parts[1].count == 8,
            let seq = UInt64(parts[0], radix: 16), let n = UInt32(parts[1], radix: 16)
        else { return nil }
        firstSequence = seq
        number = n
    }

    static func < (a: SegmentName, b: SegmentName) -> Bool {
        (a.firstSequence, a.number) < (b.firstSequence, b.number)
    }

    /// Segments in `names`, in journal order.
    static func segments(in names: [String]) -> [SegmentName] {
        names.compactMap(SegmentName.init(fileName:)).sorted()
    }
}
