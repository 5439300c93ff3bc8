// SPDX-License-Identifier: MIT

/// Where a reader left off inside a segment: the byte offset after the last record it took
/// and the parser's state there (chain head, last sequence, seal). Parsing again from here
/// verifies every record after it (CRC, sequence, chain) exactly as a parse from the start
/// would, without re-hashing and re-decoding what was already verified.
struct SegmentResume: Sendable, Hashable {
    var name: SegmentName
    /// File offset just after the last record taken (a record boundary).
    var offset: Int
    var header: SegmentHeader
    /// Chain head after the record ending at ``offset``.
    var head: [UInt8]
    /// Last sequence the segment holds up to ``offset``.
    var lastSequence: UInt64
    var sealed: Bool

    /// The state after record `index` of a parse of segment `name` (whose bytes began at file
    /// offset `base`).
    init?(after index: Int, of contents: SegmentContents, name: SegmentName, base: Int) {
        guard let header = contents.header, contents.records.indices.contains(index) else { return nil }
        let records = contents.records
        self.name = name
        self.header = header
        offset = base + records[index].end
        if index + 1 < records.count {
            // The next record says where the chain and the sequence stood before it: a user
            // record comes right after the last sequence, a checkpoint, seal or recovery
            // record carries it. A seal is always the segment's last record.
            let next = records[index + 1]
            head = next.headBefore
            if case .user = next.record { lastSequence = next.sequence &- 1 } else { lastSequence = next.sequence }
            sealed = false
        } else {
            head = contents.head
            lastSequence = contents.lastSequence
            sealed = contents.sealed
        }
    }
}
