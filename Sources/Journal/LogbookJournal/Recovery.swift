// SPDX-License-Identifier: MIT
public import LogbookCore

/// What ``JournalWriter/open(_:logger:)`` found and repaired.
public struct RecoveryReport: Sendable, Hashable {
    /// Segment files in the journal directory before recovery.
    public var segments: Int
    /// The segment recovery scanned (the last one), if any.
    public var scannedSegment: String?
    /// User records recovered from it (a point batch counts once).
    public var records: Int
    /// Last sequence number in the journal after recovery (0 for an empty journal).
    public var lastSequence: UInt64
    /// Bytes of torn or corrupt tail set aside (not counting zero preallocation).
    public var bytesDiscarded: Int
    /// Where the discarded tail was copied, if anything was discarded.
    public var brokenFile: String?
    /// True when the scanned segment had not been sealed (the writer did not close cleanly).
    public var wasUnclean: Bool
    /// Trips that were open and were closed with reason `recovered` at their last durable point.
    public var closedTrips: [TripID]
    /// The file system was full: no new segment could be made (and a torn tail could not be
    /// set aside). The writer opened anyway; its records, including the `recovered` trip
    /// ends, wait in memory until there is room.
    public var diskFull = false
}

extension JournalCore {
    /// Recovery at open (docs/journal.md, "Recovery"): O(active segment), never touches a sealed file
    /// or any durable byte. Leaves a new, empty segment open for writing.
    func recover() throws -> RecoveryReport {
        var names = SegmentName.segments(in: try fs.list(directory))
        var report = RecoveryReport(
            segments: names.count, scannedSegment: nil, records: 0, lastSequence: 0, bytesDiscarded: 0,
            brokenFile: nil, wasUnclean: false, closedTrips: [])
        lastSegmentNumber = names.map(\.number).max() ?? 0
        var contents: SegmentContents?
        var sealedHead: [UInt8]?
        while let last = names.last {
            // Only what was written is read (after a power cut most of the 4 MiB segment is
            // preallocated zeros); a torn tail beyond it is set aside from the file itself.
            let file = path(last.fileName)
            let bytes = try JournalReader.readWritten(fs: fs, path: file, blockSize: blockSize) ?? []
            let c = SegmentContents.parse(bytes, name: last, blockSize: blockSize)
            if c.header != nil {
                report.scannedSegment = last.fileName
                contents = c
                report.wasUnclean = !c.sealed
                do {
                    if !c.sealed {
                        try setAside(last, from: c.validEnd, report: &report)
                        sealedHead = try sealRecovered(last, contents: c)
                    } else if c.validEnd < (try fs.size(file) ?? 0) {
                        // Sealed, but cut before the truncation that follows a seal: what lies
                        // after the seal (preallocation, or a torn tail the seal overwrote in part)
                        // is not data.
                        try setAside(last, from: c.validEnd, report: &report)
                        let fd = try fs.openForWriting(file)
                        defer { fs.close(fd) }
                        try fs.truncate(fd, size: c.validEnd)
                        try fs.sync(fd)
                        syncCount += 1
                    }
                } catch where JournalIOError.isDiskFull(error) {
                    // No room to set the tail aside: leave the segment as the crash left it.
                    // The next segment says it was not sealed (as after a write error), so
                    // readers and verify stop at its last valid record.
                    report.diskFull = true
                    segmentFailed = true
                }
                break
            }
            // No valid header: a crash while creating it, so nothing in it was acknowledged.
            try setAside(last, from: 0, report: &report)
            try fs.remove(file)
            try fs.syncDirectory(directory)
            names.removeLast()
        }
        if let c = contents {
            adopt(lastSequence: c.lastSequence, head: sealedHead ?? c.head, openTrips: c.openTrips, nextTripID: c.nextTripID, carried: c.carried)
            report.records = c.userRecords
        }
        do {
            try startSegment()
        } catch where JournalIOError.isDiskFull(error) {
            report.diskFull = true
        }
        // Close trips a crash left open, at their last durable point.
        var closing: [(UInt64, JournalRecord)] = []
        var seq = lastSequence
        for t in openTrips.values.sorted(by: { $0.id < $1.id }) {
            seq &+= 1
            let end = TripEnded(
                id: t.id, reason: "recovered", gpsTime: t.lastPoint?.time, summary: t.summary,
                discarded: false, monotonicNanoseconds: clock())
            closing.append((seq, .tripEnded(end)))
            report.closedTrips.append(t.id)
        }
        if handle == nil {
            // Disk full: the writer commits them first, once a segment can be made.
            deferred = closing
        } else if !closing.isEmpty || report.bytesDiscarded > 0 {
            try commitRecoveryNote(closing, report: report)
        }
        report.lastSequence = lastSequence
        return report
    }

    private func commitRecoveryNote(_ closing: [(UInt64, JournalRecord)], report: RecoveryReport) throws {
        // The note is internal (no sequence of its own); it rides in the same commit.
        try commit(closing, checkpoint: false)
        guard let fd = handle else { return }
        let note = RecordCodec.encode(
            .recovery(discardedBytes: UInt64(report.bytesDiscarded), brokenFile: report.brokenFile ?? "", bootID: bootID),
            sequence: lastSequence)
        var out: [UInt8] = []
        let pos = Framing.frame(note, at: offset, into: &out, blockSize: blockSize)
        head = Chain.next(head, note)
        do {
            try fs.write(fd, out, at: offset)
            try fs.sync(fd)
            syncCount += 1
            offset = pos
            bytesWritten += out.count
            adopt(lastSequence: lastSequence, head: head, openTrips: openTrips, nextTripID: nextTripID, carried: carried)
        } catch {
            abandonSegment()
            throw error
        }
    }

    /// Copies a non-zero tail to `<segment>.broken` (fsynced) before anything overwrites it.
    private func setAside(_ name: SegmentName, from start: Int, report: inout RecoveryReport) throws {
        // What follows `start` up to the last non-zero byte (zero preallocation is not data),
        // found from the end backwards and copied a chunk at a time: a torn tail can lie
        // anywhere in the segment, and recovery holds no more of it than a chunk.
        let file = path(name.fileName)
        let chunk = 8 * blockSize
        var end = try fs.size(file) ?? 0
        while end > start {
            let from = max(start, end - chunk)
            guard let data = try fs.read(file, from: from, count: end - from), !data.isEmpty else { return }
            if let last = data.lastIndex(where: { $0 != 0 }) {
                end = from + last + 1
                break
            }
            end = from
        }
        guard end > start else { return }
        let existing = Set(try fs.list(directory))
        var broken = name.fileName + ".broken"
        var n = 1
        while existing.contains(broken) {
            broken = name.fileName + ".broken.\(n)"
            n += 1
        }
        let fd = try fs.create(path(broken))
        defer { fs.close(fd) }
        var at = start
        while at < end, let data = try fs.read(file, from: at, count: min(chunk, end - at)), !data.isEmpty {
            try fs.write(fd, data, at: at - start)
            at += data.count
        }
        try fs.sync(fd)
        try fs.syncDirectory(directory)
        report.bytesDiscarded += at - start
        report.brokenFile = broken
    }

    /// Seals the unsealed segment a crash left: SEAL at its valid end, fdatasync, truncate.
    /// Bytes before `validEnd` are never written.
    private func sealRecovered(_ name: SegmentName, contents c: SegmentContents) throws -> [UInt8] {
        let fd = try fs.openForWriting(path(name.fileName))
        defer { fs.close(fd) }
        var out: [UInt8] = []
        let seal = RecordCodec.encode(.seal(recordCount: UInt64(c.userRecords)), sequence: c.lastSequence)
        let end = Framing.frame(seal, at: c.validEnd, into: &out, blockSize: blockSize)
        try fs.write(fd, out, at: c.validEnd)
        try fs.sync(fd)
        try fs.truncate(fd, size: end)
        try fs.sync(fd)
        syncCount += 2
        return Chain.next(c.head, seal)
    }
}
