// SPDX-License-Identifier: MIT

/// One segment as a reader sees it: its records up to where it counts.
struct SegmentVisit {
    var name: SegmentName
    /// The records parsed up to the segment's counted end (and the reader's limit).
    var contents: SegmentContents
    /// A later segment with a valid header exists: this one will never grow.
    var followed: Bool
}

extension JournalReader {
    /// Walks the segments from `startingAt` (nil: the first) in order, applying the
    /// segment-linking rules: a segment's records count up to the next header's
    /// `previousLastSequence`; each header must continue where the previous segment's counted
    /// records ended (`expectedPrevious` for the first one visited, when known); a gap, a
    /// broken link or a bad record ends the walk after the last good record.
    static func walkSegments(
        fs: any JournalFileSystem, directory: String, limit: UInt64, startingAt: SegmentName? = nil,
        expectedPrevious: UInt64? = nil, blockSize: Int = Framing.blockSize, _ body: (SegmentVisit) throws -> Bool
    ) throws {
        let names = SegmentName.segments(in: try fs.list(directory)).filter { n in startingAt.map { n >= $0 } ?? true }
        var cache: [SegmentName: [UInt8]] = [:]
        func bytes(_ n: SegmentName) throws -> [UInt8] {
            if let b = cache[n] { return b }
            let b = try fs.read(directory + "/" + n.fileName) ?? []
            cache[n] = b
            return b
        }
        var expected = expectedPrevious
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
            let c = SegmentContents.parse(data, name: name, stopAfter: segmentLimit, blockSize: blockSize, tracksOpenTrips: false)
            guard let header = c.header else {
                // Only an empty or all-zero file (creation failed before its header was
                // written) is skipped; anything else is damage, and reading stops there.
                if nextHeader != nil && Framing.allZero(data, 0, data.count) { continue }
                return
            }
            if let e = expected, header.previousLastSequence != e { return }
            guard try body(SegmentVisit(name: name, contents: c, followed: nextHeader != nil)) else { return }
            if let n = nextHeader, c.lastSequence < n.previousLastSequence, c.lastSequence < limit { return }
            if c.lastSequence >= limit { return }
            expected = c.lastSequence
        }
    }

    /// The segment that holds the record ending at `sequence`: the last one named with a
    /// first sequence at or below it (nil: before every segment, i.e. start at the first).
    static func segment(holding sequence: UInt64, in names: [String]) -> SegmentName? {
        guard sequence > 0 else { return nil }
        return SegmentName.segments(in: names).last { $0.firstSequence <= sequence }
    }
}
