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
            case .signal, .entry:
                break
            }
            return true
        }
        return order.compactMap { byID[$0] }
    }

    /// The points of trip `id`, in journal order.
    public func points(of id: TripID) throws -> [TripPoint] {
        var out: [TripPoint] = []
        try forEach { e in
            if case .points(let t, let p) = e.record, t == id { out.append(contentsOf: p) }
            if case .tripEnded(let end) = e.record, end.id == id { return false }
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
        let names = SegmentName.segments(in: try fs.list(directory)).filter { n in startingAt.map { n >= $0 } ?? true }
        var cache: [SegmentName: [UInt8]] = [:]
        func bytes(_ n: SegmentName) throws -> [UInt8] {
            if let b = cache[n] { return b }
            let b = try fs.read(directory + "/" + n.fileName) ?? []
            cache[n] = b
            return b
        }
        var expected: UInt64?
        for (i, name) in names.enumerated() {
            let data = try bytes(name)
            cache[name] = nil
            // The next segment with a header says how far this one counts (an abandoned
            // segment may hold records that were never acknowledged and were re-written there).
            var nextHeader: SegmentHeader?
            for j in (i + 1)..<max(i + 1, names.count) {
                if let h = header(of: try bytes(names[j]), blockSize: blockSize) {
                    nextHeader = h
                    break
                }
            }
            let segmentLimit = min(limit, nextHeader?.previousLastSequence ?? UInt64.max)
            let c = SegmentContents.parse(data, name: name, stopAfter: segmentLimit, blockSize: blockSize)
            guard let header = c.header else {
                // Only an empty or all-zero file (creation failed before its header was
                // written) is skipped; anything else is damage, and reading stops there.
                if nextHeader != nil && Framing.allZero(data, 0, data.count) { continue }
                return
            }
            if let e = expected, header.previousLastSequence != e { return }
            for r in c.records where try !body(name, r.sequence, r.record) { return }
            if let n = nextHeader, c.lastSequence < n.previousLastSequence, c.lastSequence < limit { return }
            if c.lastSequence >= limit { return }
            expected = c.lastSequence
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
