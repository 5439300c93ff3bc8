// SPDX-License-Identifier: MIT
public import LogbookCore

/// Reads a journal directory: records in sequence order, trips, a trip's points.
///
/// It stops at the first bad or missing record, so it never returns a corrupt record or one
/// after a gap. Give it the writer's ``JournalWriter/durableSequence`` while a writer runs so
/// it never returns a record that is not yet durable.
public struct JournalReader: Sendable {
    /// The journal directory.
    public let directory: String
    /// Highest sequence number returned (nil: everything readable).
    public let limit: UInt64?

    /// Creates a reader. Throws when `directory` cannot be listed.
    public init(directory: String, upTo limit: UInt64? = nil) throws {
        self.directory = directory
        self.limit = limit
        _ = try PosixFileSystem().list(directory)
    }

    /// Calls `body` for each user record with sequence ≥ `from`, in order, until it returns false.
    public func forEach(from: UInt64 = 0, _ body: (JournalEntry) throws -> Bool) throws {
        let fs = PosixFileSystem()
        try Self.walk(fs: fs, directory: directory, limit: limit ?? UInt64.max) { _, seq, record in
            guard case .user(let r) = record else { return true }
            if seq &+ r.sequenceCount &- 1 < from { return true }
            return try body(JournalEntry(sequence: seq, record: r))
        }
    }

    /// All user records with sequence ≥ `from`.
    public func entries(from: UInt64 = 0) throws -> [JournalEntry] {
        var out: [JournalEntry] = []
        try forEach(from: from) { out.append($0); return true }
        return out
    }

    /// Every trip, in order of its start.
    public func trips() throws -> [TripInfo] {
        var byID: [TripID: TripInfo] = [:]
        var order: [TripID] = []
        try forEach { e in
            switch e.record {
            case .tripStarted(let s):
                if byID[s.id] == nil { order.append(s.id) }
                byID[s.id] = TripInfo(started: s, sequence: e.sequence)
            case .points(let id, let points):
                byID[id]?.add(points)
            case .tripEnded(let end):
                byID[end.id]?.end(end, sequence: e.sequence)
            case .tripReopened(let r):
                byID[r.id]?.reopen(r)
            case .signal, .entry:
                break
            }
            return true
        }
        return order.compactMap { byID[$0] }
    }

    /// The points of trip `id`, in journal order (a reopened trip's included).
    public func points(of id: TripID) throws -> [TripPoint] {
        var out: [TripPoint] = []
        var ended = false
        try forEach { e in
            switch e.record {
            case .points(let t, let p) where t == id: out.append(contentsOf: p)
            case .tripEnded(let end) where end.id == id: ended = true
            case .tripReopened(let r) where r.id == id: ended = false
            // Only the journal's last trip can be reopened: a later start settles it.
            case .tripStarted(let s) where ended && s.id > id: return false
            default: break
            }
            return true
        }
        return out
    }

    /// Walks all records of the journal in order, applying the segment-linking rules: a
    /// segment's records count up to the next header's `previousLastSequence`; a gap, a
    /// broken link or a bad record ends the walk.
    static func walk(
        fs: any JournalFileSystem, directory: String, limit: UInt64, startingAt: SegmentName? = nil, blockSize: Int = Framing.blockSize,
        _ body: (SegmentName, UInt64, LogicalRecord) throws -> Bool
    ) throws {
        try walkSegments(fs: fs, directory: directory, limit: limit, startingAt: startingAt, blockSize: blockSize) { visit in
            for r in visit.contents.records where try !body(visit.name, r.sequence, r.record) { return false }
            return true
        }
    }

    static func header(of bytes: [UInt8], blockSize: Int = Framing.blockSize) -> SegmentHeader? {
        var h: SegmentHeader?
        _ = Framing.scan(bytes, blockSize: blockSize, limit: 1) { found in
            if case .header(let hd)? = try? RecordCodec.decode(found.payload).record { h = hd }
            return false
        }
        return h
    }
}
