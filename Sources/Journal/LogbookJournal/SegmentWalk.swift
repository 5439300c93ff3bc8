// SPDX-License-Identifier: MIT

/// One segment as a reader sees it: its records up to where it counts.
struct SegmentVisit {
    var name: SegmentName
    /// The records parsed up to the segment's counted end (and the reader's limit).
    var contents: SegmentContents
    /// A later segment with a valid header exists: this one will never grow.
    var followed: Bool
    /// File offset of the parsed bytes' first byte (a resumed parse reads from there on):
    /// record offsets in ``contents`` are relative to it.
    var base = 0
}

extension JournalReader {
    /// Walks the segments from `startingAt` (nil: the first) in order, applying the
    /// segment-linking rules: a segment's records count up to the next header's
    /// `previousLastSequence`; each header must continue where the previous segment's counted
    /// records ended (`expectedPrevious` for the first one visited, when known); a gap, a
    /// broken link or a bad record ends the walk after the last good record.
    ///
    /// `resume` (for the segment `startingAt`) parses that segment from where an earlier walk
    /// left off; the visit then holds only the records after it. Anything unusual there (the
    /// file shorter than the offset, a later header that no longer counts the records before
    /// it, damage after it) parses the segment from its start instead. User records ending
    /// before `retainFrom` are verified but left out of the visits (a tail's position).
    static func walkSegments(
        fs: any JournalFileSystem, directory: String, limit: UInt64, startingAt: SegmentName? = nil,
        expectedPrevious: UInt64? = nil, resume: SegmentResume? = nil, blockSize: Int = Framing.blockSize,
        retainFrom: UInt64 = 0, _ body: (SegmentVisit) throws -> Bool
    ) throws {
        let names = SegmentName.segments(in: try fs.list(directory)).filter { n in startingAt.map { n >= $0 } ?? true }
        // One segment in memory at a time, and of it only what was written (``readWritten``);
        // of the segments after it, only their first block (where the header is).
        func firstBlock(_ n: SegmentName) throws -> [UInt8] {
            try fs.read(directory + "/" + n.fileName, from: 0, count: blockSize) ?? []
        }
        var expected = expectedPrevious
        for (i, name) in names.enumerated() {
            // The next segment with a header says how far this one counts (an abandoned
            // segment may hold records that were never acknowledged and were re-written there).
            var nextHeader: SegmentHeader?
            for j in (i + 1)..<max(i + 1, names.count) {
                if let h = header(of: try firstBlock(names[j]), blockSize: blockSize) {
                    nextHeader = h
                    break
                }
            }
            let segmentLimit = min(limit, nextHeader?.previousLastSequence ?? UInt64.max)
            var parsed: (contents: SegmentContents, base: Int)?
            if i == 0, let r = resume, r.name == name, r.lastSequence <= segmentLimit {
                parsed = try parse(
                    resuming: r, fs: fs, path: directory + "/" + name.fileName, stopAfter: segmentLimit, blockSize: blockSize,
                    retainFrom: retainFrom)
            }
            if parsed == nil {
                let path = directory + "/" + name.fileName
                let data = try readWritten(fs: fs, path: path, blockSize: blockSize) ?? []
                let c = SegmentContents.parse(
                    data, name: name, stopAfter: segmentLimit, blockSize: blockSize, tracksOpenTrips: false, retainFrom: retainFrom)
                if c.header == nil {
                    // Only an empty or all-zero file (creation failed before its header was
                    // written) is skipped; anything else is damage, and reading stops there.
                    if nextHeader != nil, let all = try fs.read(path), Framing.allZero(all, 0, all.count) { continue }
                    return
                }
                parsed = (c, 0)
            }
            // This force-unwrap is safe: `parsed` was set just above.
            let (c, base) = parsed!
            guard let header = c.header else { return }
            if let e = expected, header.previousLastSequence != e { return }
            guard try body(SegmentVisit(name: name, contents: c, followed: nextHeader != nil, base: base)) else { return }
            if let n = nextHeader, c.lastSequence < n.previousLastSequence, c.lastSequence < limit { return }
            if c.lastSequence >= limit { return }
            expected = c.lastSequence
        }
    }

    /// A segment's bytes up to the end of its first all-zero block (all of them when it has
    /// none), or nil when it does not exist. The framing ends the data at preallocated, zero
    /// space and looks no further than the rest of that block, so a parse of these bytes is the
    /// parse of the whole file, without reading (and holding) the zeros a segment is
    /// preallocated with: a new segment is 4 MiB of them, read at every daemon start.
    static func readWritten(fs: any JournalFileSystem, path: String, blockSize: Int) throws -> [UInt8]? {
        guard let size = try fs.size(path) else { return nil }
        var out: [UInt8] = []
        // Address space only: a page counts towards the process's memory once written.
        out.reserveCapacity(size)
        let chunk = 8 * blockSize
        while out.count < size {
            guard let data = try fs.read(path, from: out.count, count: chunk), !data.isEmpty else { break }
            var block = 0
            while block < data.count {
                let end = min(block + blockSize, data.count)
                out.append(contentsOf: data[block..<end])
                if Framing.allZero(data, block, end) { return out }
                block = end
            }
        }
        return out
    }

    /// Parses segment `r.name` on from `r.offset`, reading only from the block before it on and
    /// no further than needed (a window that doubles until the data or the limit ends in it).
    /// Nil when that cannot stand in for a parse from the start: the file is shorter than the
    /// offset, or damaged after it.
    static func parse(
        resuming r: SegmentResume, fs: any JournalFileSystem, path: String, stopAfter: UInt64, blockSize: Int,
        retainFrom: UInt64 = 0
    ) throws -> (contents: SegmentContents, base: Int)? {
        // From the block before the offset: a file cut back to the offset shows as too short.
        let base = max(0, r.offset - 1) / blockSize * blockSize
        var local = r
        local.offset -= base
        var window = 8 * blockSize
        while true {
            guard let data = try fs.read(path, from: base, count: window), local.offset <= data.count,
                  local.offset > 0 || r.offset == 0
            else { return nil }
            let c = SegmentContents.parse(
                data, name: r.name, stopAfter: stopAfter, blockSize: blockSize, tracksOpenTrips: false, resuming: local,
                retainFrom: retainFrom)
            if case .corrupt = c.stop { return nil }
            // Done when the file ends in the window, or the data (or the limit) does.
            if data.count < window || (c.stop == .clean && c.validEnd < data.count) { return (c, base) }
            window *= 2
        }
    }

    /// The segment that holds the record ending at `sequence`: the last one named with a
    /// first sequence at or below it (nil: before every segment, i.e. start at the first).
    static func segment(holding sequence: UInt64, in names: [String]) -> SegmentName? {
        guard sequence > 0 else { return nil }
        return SegmentName.segments(in: names).last { $0.firstSequence <= sequence }
    }
}
