// SPDX-License-Identifier: MIT
/// Follows a journal's tail for projections (the index, live views): each ``poll(upTo:)``
/// returns the records appended since the previous one.
///
/// Cost per poll is one listing plus a read of the segments from the one holding the last
/// delivered record on (normally just the active segment).
public struct JournalTail: Sendable {
    /// The journal directory.
    public let directory: String
    /// The last sequence number delivered.
    public private(set) var lastSequence: UInt64
    private var segment: SegmentName?

    /// Starts after `sequence` (0: from the beginning).
    public init(directory: String, after sequence: UInt64 = 0) {
        self.directory = directory
        self.lastSequence = sequence
    }

    /// Records after ``lastSequence`` up to `limit` (pass the writer's durable sequence while
    /// a writer runs), in order.
    public mutating func poll(upTo limit: UInt64? = nil) throws -> [JournalEntry] {
        var out: [JournalEntry] = []
        var last = lastSequence
        var where_ = segment
        try JournalReader.walk(fs: PosixFileSystem(), directory: directory, limit: limit ?? UInt64.max, startingAt: segment) {
            name, seq, record in
            guard case .user(let r) = record, seq > last else { return true }
            out.append(JournalEntry(sequence: seq, record: r))
            last = seq &+ r.sequenceCount &- 1
            where_ = name
            return true
        }
        lastSequence = last
        segment = where_
        return out
    }
}
