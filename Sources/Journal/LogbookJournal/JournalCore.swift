// SPDX-License-Identifier: MIT
import LogbookCore

/// The synchronous heart of the writer: segments, framing, chain, checkpoints, commit and
/// recovery. Not thread-safe: ``JournalWriter`` confines it to its writer thread, and the
/// crash tests drive it directly on a simulated ``JournalFileSystem``.
final class JournalCore {
    let fs: any JournalFileSystem
    let directory: String
    let segmentSize: Int
    let key: JournalSigningKey
    let bootID: String
    let clock: () -> UInt64
    /// Always 32 KiB on disk; tests shrink it to exercise fragmentation in small fixtures.
    var blockSize = Framing.blockSize

    // Current segment (nil before open, after close, or after a failed write).
    var handle: Int32?
    var segment: SegmentName?
    var offset = 0
    var userRecordsInSegment: UInt64 = 0
    var lastSegmentNumber: UInt32 = 0
    /// Set after a write or fdatasync error: that file is never synced again (fsyncgate).
    var segmentFailed = false
    /// Records recovery made (trip ends) but could not commit: the disk was full.
    var deferred: [(UInt64, JournalRecord)] = []

    // In-memory state up to the last framed record, and its durable snapshot.
    var lastSequence: UInt64 = 0
    var head: [UInt8] = Chain.genesis
    var openTrips: [TripID: OpenTrip] = [:]
    var nextTripID: UInt64 = 1
    var carried = CarriedEntries()
    var lastGPSTime: Int64?
    private(set) var durable = Snapshot(lastSequence: 0, head: Chain.genesis, openTrips: [:], nextTripID: 1, carried: CarriedEntries())

    /// Counters for ``JournalStatistics``.
    var syncCount = 0
    var bytesWritten = 0
    var segmentsCreated = 0
    var checkpointsWritten = 0

    struct Snapshot {
        var lastSequence: UInt64
        var head: [UInt8]
        var openTrips: [TripID: OpenTrip]
        var nextTripID: UInt64
        var carried: CarriedEntries
    }

    init(
        fs: any JournalFileSystem, directory: String, segmentSize: Int, key: JournalSigningKey,
        bootID: String, clock: @escaping () -> UInt64
    ) {
        self.fs = fs
        self.directory = directory
        self.segmentSize = segmentSize
        self.key = key
        self.bootID = bootID
        self.clock = clock
    }

    func path(_ name: String) -> String { directory + "/" + name }

    /// Appends `records` (sequence numbers already assigned, contiguous from `lastSequence+1`)
    /// plus a signed checkpoint when asked, with one `pwrite` and one `fdatasync`.
    /// On error the in-memory state rolls back to the last durable commit and the segment is
    /// abandoned; the caller re-submits the same records later, into a new segment.
    func commit(_ records: [(UInt64, JournalRecord)], checkpoint: Bool) throws {
        if handle == nil || segmentFailed { try startSegment() }
        var payloads: [[UInt8]] = []
        payloads.reserveCapacity(records.count + 1)
        for (seq, r) in records { payloads.append(RecordCodec.encode(.user(r), sequence: seq)) }
        let estimate = payloads.reduce(0) { $0 + $1.count + Framing.headerSize * (1 + $1.count / (blockSize - Framing.headerSize)) } + 256
        if userRecordsInSegment > 0 && offset + estimate > segmentSize {
            try rotate()
        }
        do {
            var out: [UInt8] = []
            out.reserveCapacity(estimate)
            var pos = offset
            for ((seq, r), payload) in zip(records, payloads) {
                guard seq == lastSequence &+ 1 else { throw JournalError.internalInconsistency("sequence \(seq) after \(lastSequence)") }
                pos = Framing.frame(payload, at: pos, into: &out, blockSize: blockSize)
                head = Chain.next(head, payload)
                lastSequence = seq &+ r.sequenceCount &- 1
                apply(r)
            }
            if checkpoint { pos = appendCheckpoint(at: pos, into: &out) }
            guard !out.isEmpty, let fd = handle else { return }
            try fs.write(fd, out, at: offset)
            bytesWritten += out.count
            try fs.sync(fd)
            syncCount += 1
            offset = pos
            userRecordsInSegment += UInt64(records.count)
            durable = Snapshot(lastSequence: lastSequence, head: head, openTrips: openTrips, nextTripID: nextTripID, carried: carried)
        } catch {
            abandonSegment()
            throw error
        }
    }

    /// Seals the current segment: a SEAL record, fdatasync, release the preallocation.
    func seal() throws {
        guard let fd = handle, !segmentFailed else { return }
        do {
            var out: [UInt8] = []
            var pos = appendCheckpoint(at: offset, into: &out)
            let payload = RecordCodec.encode(.seal(recordCount: userRecordsInSegment), sequence: lastSequence)
            pos = Framing.frame(payload, at: pos, into: &out, blockSize: blockSize)
            head = Chain.next(head, payload)
            try fs.write(fd, out, at: offset)
            bytesWritten += out.count
            try fs.sync(fd)
            syncCount += 1
            offset = pos
            durable.head = head
            try fs.truncate(fd, size: offset)
            try fs.sync(fd)
            syncCount += 1
            fs.close(fd)
            handle = nil
            segment = nil
        } catch {
            abandonSegment()
            throw error
        }
    }

    /// Rolls the in-memory state back to the durable snapshot and drops the file handle.
    func abandonSegment() {
        segmentFailed = true
        if let fd = handle { fs.close(fd) }
        handle = nil
        lastSequence = durable.lastSequence
        head = durable.head
        openTrips = durable.openTrips
        nextTripID = durable.nextTripID
        carried = durable.carried
    }

    private func rotate() throws {
        try seal()
        try startSegment()
    }

    /// Creates the next segment: create, preallocate, header, fdatasync, fsync(dir). Only
    /// then may anything in it be acknowledged (the ALICE "safe new file" rule).
    func startSegment() throws {
        let name = SegmentName(firstSequence: durable.lastSequence &+ 1, number: lastSegmentNumber &+ 1)
        lastSegmentNumber = name.number
        let fd = try fs.create(path(name.fileName))
        do {
            try fs.allocate(fd, size: segmentSize)
            let header = SegmentHeader(
                bootID: bootID, monotonicNanoseconds: clock(), previousHead: durable.head,
                previousLastSequence: durable.lastSequence, previousSealed: !segmentFailed, nextTripID: durable.nextTripID,
                publicKey: Array(key.publicKey.rawRepresentation),
                openTrips: durable.openTrips.values.sorted { $0.id < $1.id }, carried: durable.carried)
            let payload = RecordCodec.encode(.header(header), sequence: name.firstSequence)
            var out: [UInt8] = []
            let pos = Framing.frame(payload, at: 0, into: &out, blockSize: blockSize)
            try fs.write(fd, out, at: 0)
            bytesWritten += out.count
            try fs.sync(fd)
            syncCount += 1
            try fs.syncDirectory(directory)
            syncCount += 1
            handle = fd
            segment = name
            offset = pos
            userRecordsInSegment = 0
            segmentFailed = false
            segmentsCreated += 1
            lastSequence = durable.lastSequence
            openTrips = durable.openTrips
            nextTripID = durable.nextTripID
            carried = durable.carried
            head = Chain.next(durable.head, payload)
            durable.head = head
        } catch {
            // Nothing in it was acknowledged: remove the half-made file (best effort; readers
            // and verify skip a header-less segment that a linked one follows).
            fs.close(fd)
            try? fs.remove(path(name.fileName))
            throw error
        }
    }

    private func appendCheckpoint(at pos: Int, into out: inout [UInt8]) -> Int {
        let mono = clock()
        let signature = (try? key.signature(for: Self.checkpointMessage(
            sequence: lastSequence, head: head, gpsTime: lastGPSTime, monotonic: mono))) ?? []
        guard signature.count == 64 else { return pos }
        let cp = Checkpoint(head: head, gpsTime: lastGPSTime, monotonicNanoseconds: mono, signature: signature)
        let payload = RecordCodec.encode(.checkpoint(cp), sequence: lastSequence)
        head = Chain.next(head, payload)
        checkpointsWritten += 1
        return Framing.frame(payload, at: pos, into: &out, blockSize: blockSize)
    }

    /// What a checkpoint signs: domain-separated so the signature cannot be replayed elsewhere.
    static func checkpointMessage(sequence: UInt64, head: [UInt8], gpsTime: Int64?, monotonic: UInt64) -> [UInt8] {
        var w = ByteWriter(capacity: 80)
        w.raw(Array("logbook-checkpoint-v1".utf8))
        w.u64(sequence)
        w.raw(head)
        w.optionalTime(gpsTime)
        w.u64(monotonic)
        return w.bytes
    }

    func apply(_ r: JournalRecord) {
        var c = SegmentContents()
        c.openTrips = openTrips
        c.nextTripID = nextTripID
        c.carried = carried
        c.apply(r)
        openTrips = c.openTrips
        nextTripID = c.nextTripID
        carried = c.carried
        if case .points(_, let points) = r, let t = points.last?.time.nanoseconds { lastGPSTime = t }
    }

    /// Restores the state recovery found.
    func adopt(lastSequence: UInt64, head: [UInt8], openTrips: [TripID: OpenTrip], nextTripID: UInt64, carried: CarriedEntries) {
        self.lastSequence = lastSequence
        self.head = head
        self.openTrips = openTrips
        self.nextTripID = nextTripID
        self.carried = carried
        durable = Snapshot(lastSequence: lastSequence, head: head, openTrips: openTrips, nextTripID: nextTripID, carried: carried)
    }
}
