// SPDX-License-Identifier: MIT
/// A place in the journal a projection has read up to: the last sequence number it consumed
/// and the hash-chain head right after that record.
///
/// Records a reader saw but the writer had not yet made durable can vanish in a power cut,
/// and their sequence numbers are then reused for other records. The chain head tells the
/// two apart: a projection that stored a position can check that the journal still holds the
/// same record there before it trusts what it built from it.
public struct TailPosition: Sendable, Hashable {
    /// The last sequence number consumed (0: none).
    public var sequence: UInt64
    /// SHA-256 chain head after that record (empty for sequence 0).
    public var chainHead: [UInt8]

    /// Creates a position.
    public init(sequence: UInt64, chainHead: [UInt8]) {
        self.sequence = sequence
        self.chainHead = chainHead
    }

    /// Before the first record.
    public static let start = TailPosition(sequence: 0, chainHead: [])
}

/// Follows a journal's tail for projections (the index, live views): each ``poll(upTo:maxEntries:)``
/// returns the records appended since the previous one.
///
/// It starts at the segment that holds the record it resumes after (segment names carry their
/// first sequence number), so catching up costs O(new records) plus one segment, however long
/// the history. Segment links are checked from there on, as ``JournalReader`` does.
public struct JournalTail: Sendable {
    /// The journal directory.
    public let directory: String
    /// The last sequence number delivered (or resumed after).
    public private(set) var lastSequence: UInt64
    /// The chain head after ``lastSequence``, once the record ending there has been read
    /// (nil before the first poll, or when no readable record ends there).
    public private(set) var position: TailPosition?
    /// User records decoded so far, delivered or skipped (what catching up really cost).
    public private(set) var recordsRead = 0

    /// Where the next poll starts; nil: find the segment holding ``lastSequence``.
    private var segment: SegmentName?
    /// The counted end of the segment before ``segment``, for its link check (when known).
    private var expectedPrevious: UInt64?
    /// The position a resumed tail must find before it delivers anything.
    private var pendingCheck: TailPosition?

    /// The journal does not hold the record a resumed tail expected: it was replaced (a power
    /// cut lost it and the number was reused), or the journal is another one.
    public struct PositionMismatch: Error, Sendable, CustomStringConvertible {
        /// The position that was expected.
        public var expected: TailPosition
        /// What the journal holds there (nil: no readable record ends at that sequence).
        public var found: TailPosition?
        public var description: String {
            "the journal no longer holds the record at sequence \(expected.sequence)"
                + (found == nil ? " (it ends earlier or a record spans it)" : " (different chain head)")
        }
    }

    /// Starts after `sequence` (0: from the beginning), at the segment holding it, without
    /// checking what is there.
    public init(directory: String, after sequence: UInt64 = 0) {
        self.directory = directory
        self.lastSequence = sequence
        if sequence == 0 { position = .start }
    }

    /// Resumes after `position`: the first poll throws ``PositionMismatch`` unless the record
    /// ending at `position.sequence` is still there with the same chain head.
    public init(directory: String, resumingAfter position: TailPosition) {
        self.init(directory: directory, after: position.sequence)
        if position.sequence > 0 { pendingCheck = position }
    }

    /// Records after ``lastSequence`` up to `limit` (pass the writer's durable sequence while
    /// a writer runs, or nil for everything readable), in order. Stops at the end of the
    /// segment in which `maxEntries` is reached, so no segment is parsed twice.
    ///
    /// - Throws: ``PositionMismatch`` (resumed tails only), or an I/O error listing or reading.
    public mutating func poll(upTo limit: UInt64? = nil, maxEntries: Int = .max) throws -> [JournalEntry] {
        let fs = PosixFileSystem()
        var start = segment
        if start == nil { start = JournalReader.segment(holding: lastSequence, in: try fs.list(directory)) }
        var out: [JournalEntry] = []
        var mismatch: PositionMismatch?
        // Only the record ending at the position and what follows it are kept: nothing new to
        // read costs the bytes of one segment, not its decoded points.
        try JournalReader.walkSegments(
            fs: fs, directory: directory, limit: limit ?? UInt64.max, startingAt: start, expectedPrevious: expectedPrevious,
            retainFrom: lastSequence
        ) { visit in
            let records = visit.contents.records
            recordsRead += visit.contents.userRecords
            for (i, r) in records.enumerated() {
                guard case .user(let record) = r.record else { continue }
                let end = r.sequence &+ record.sequenceCount &- 1
                let headAfter = i + 1 < records.count ? records[i + 1].headBefore : visit.contents.head
                if end < lastSequence { continue }
                if end == lastSequence {
                    position = TailPosition(sequence: end, chainHead: headAfter)
                    continue
                }
                if let check = pendingCheck {
                    // A record spanning the resume point, or a different one ending there.
                    guard position == check else {
                        mismatch = PositionMismatch(expected: check, found: position)
                        return false
                    }
                    pendingCheck = nil
                }
                guard r.sequence == lastSequence &+ 1 else {
                    mismatch = PositionMismatch(expected: TailPosition(sequence: lastSequence, chainHead: []), found: nil)
                    return false
                }
                out.append(JournalEntry(sequence: r.sequence, record: record))
                lastSequence = end
                position = TailPosition(sequence: end, chainHead: headAfter)
            }
            // A segment that is followed by another never grows: start after it next time.
            if visit.followed, visit.contents.lastSequence <= lastSequence {
                segment = SegmentName(firstSequence: visit.contents.lastSequence &+ 1, number: 0)
                expectedPrevious = visit.contents.lastSequence
            } else {
                segment = visit.name
                expectedPrevious = visit.contents.header?.previousLastSequence
            }
            return out.count < maxEntries
        }
        if let mismatch { throw mismatch }
        if let check = pendingCheck, position != nil || lastSequence > 0 {
            // Nothing new: the resume point itself must still be there.
            if position != check { throw PositionMismatch(expected: check, found: position) }
            pendingCheck = nil
        }
        return out
    }

    /// The position of the record ending at `sequence`: its chain head, read from the segment
    /// holding it. Nil when no readable record ends exactly there.
    public static func position(at sequence: UInt64, in directory: String) throws -> TailPosition? {
        if sequence == 0 { return .start }
        let fs = PosixFileSystem()
        var found: TailPosition?
        let start = JournalReader.segment(holding: sequence, in: try fs.list(directory))
        try JournalReader.walkSegments(fs: fs, directory: directory, limit: sequence, startingAt: start, retainFrom: sequence) { visit in
            let records = visit.contents.records
            for (i, r) in records.enumerated() {
                guard case .user(let record) = r.record, r.sequence &+ record.sequenceCount &- 1 == sequence else { continue }
                found = TailPosition(sequence: sequence, chainHead: i + 1 < records.count ? records[i + 1].headBefore : visit.contents.head)
                return false
            }
            return true
        }
        return found
    }
}
