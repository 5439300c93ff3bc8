// SPDX-License-Identifier: MIT
/// Where a ``JournalStream`` stands: what it has delivered so far. Saved by followers (the
/// uplink's per-sink cursors) so a restart resumes exactly after the last acknowledged item.
public struct JournalPosition: Sendable, Hashable {
    /// Last user sequence number delivered (0: none).
    public var sequence: UInt64
    /// File name of the segment holding the last delivered item ("" before the first).
    public var segment: String
    /// Chain head of the last checkpoint delivered at ``sequence`` (empty: none at it yet).
    public var checkpointHead: [UInt8]

    /// Creates a position.
    public init(sequence: UInt64 = 0, segment: String = "", checkpointHead: [UInt8] = []) {
        self.sequence = sequence
        self.segment = segment
        self.checkpointHead = checkpointHead
    }

    /// The start of the journal.
    public static let start = JournalPosition()
}

/// What a ``JournalStream`` delivers, in journal order.
public enum JournalItem: Sendable, Hashable {
    /// A user record (trip start/end, points, signal, entry).
    case entry(JournalEntry)
    /// A signed checkpoint.
    case checkpoint(JournalCheckpoint)
    /// The journal no longer holds what was delivered after `to`: a power cut took records
    /// that were written but not yet durable, and recovery reused their numbers. Consumers
    /// drop what they hold after `to`; the records that follow replace it.
    case rewound(from: UInt64, to: UInt64)
}

/// Follows a journal for an outbox: user records and signed checkpoints in order, resumable
/// from a saved ``JournalPosition``, read-only (works without write access to the journal).
///
/// Each ``read(maxPoints:)`` reads from the segment of the last delivered item on (normally
/// only the active segment), so its cost does not grow with the journal; a read that follows
/// another parses on from the byte where that one stopped (every record after it is still
/// checked: CRC, sequence, hash chain), so draining a backlog parses each record once.
public struct JournalStream: Sendable {
    /// The journal directory.
    public let directory: String
    /// What has been delivered.
    public private(set) var position: JournalPosition

    /// Starts after `position`.
    public init(directory: String, after position: JournalPosition = .start) {
        self.directory = directory
        self.position = position
    }

    /// Where the last read stopped inside a segment, valid while ``position`` is what that
    /// read left: the next read parses on from there instead of from the segment's start.
    private var resume: SegmentResume?
    private var resumeFor: JournalPosition?

    /// The next items after ``position``, stopping once about `maxPoints` points (a record
    /// counts as one) have been collected. Empty when nothing new is readable.
    public mutating func read(maxPoints: Int = 1024) throws -> [JournalItem] {
        var out: [JournalItem] = []
        var pos = position
        var budget = max(1, maxPoints)
        let startSegment = SegmentName(fileName: pos.segment)
        let resuming = resumeFor == position ? resume : nil
        // Checkpoints at `pos.sequence` up to the one delivered last are behind us (a resumed
        // read starts after everything the last read looked at, the last delivered item too).
        var pastMarker = pos.checkpointHead.isEmpty || resuming != nil
        var key: [UInt8] = resuming?.header.publicKey ?? []
        // The last record looked at: where the next read goes on from.
        var stoppedAt: (visit: SegmentVisit, index: Int)?
        // Parse no further than the batch can reach (a points record holds at most 1,024).
        let limit = pos.sequence &+ UInt64(budget) &+ 1024
        try JournalReader.walkSegments(
            fs: PosixFileSystem(), directory: directory, limit: limit, startingAt: resuming?.name ?? startSegment, resume: resuming
        ) { visit in
            let name = visit.name
            let fileName = name.fileName  // once per segment, not per record
            for (index, scanned) in visit.contents.records.enumerated() {
                let seq = scanned.sequence
                stoppedAt = (visit, index)
                switch scanned.record {
                case .header(let h):
                    key = h.publicKey
                    // A segment started after the one we delivered from, continuing from an earlier
                    // sequence: what we delivered beyond it is gone (see `rewound`).
                    if let s = startSegment, name > s, h.previousLastSequence < pos.sequence {
                        out.append(.rewound(from: pos.sequence, to: h.previousLastSequence))
                        pos = JournalPosition(sequence: h.previousLastSequence, segment: fileName)
                        pastMarker = true
                    }
                case .user(let r):
                    guard seq > pos.sequence else { continue }
                    out.append(.entry(JournalEntry(sequence: seq, record: r)))
                    pos = JournalPosition(sequence: seq &+ r.sequenceCount &- 1, segment: fileName)
                    pastMarker = true
                    budget -= Int(r.sequenceCount)
                case .checkpoint(let cp):
                    guard seq >= pos.sequence else { continue }
                    if seq == pos.sequence && !pastMarker {
                        if cp.head == pos.checkpointHead { pastMarker = true }
                        continue
                    }
                    out.append(.checkpoint(JournalCheckpoint(cp, sequence: seq, publicKey: key)))
                    pos = JournalPosition(sequence: seq, segment: fileName, checkpointHead: cp.head)
                    pastMarker = true
                    budget -= 1
                default:
                    break
                }
                if budget <= 0 { return false }
            }
            return true
        }
        position = pos
        if let (visit, index) = stoppedAt {
            resume = SegmentResume(after: index, of: visit.contents, name: visit.name, base: visit.base)
        } else {
            resume = resuming
        }
        resumeFor = resume == nil ? nil : pos
        return out
    }
}
