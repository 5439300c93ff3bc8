// SPDX-License-Identifier: MIT
import LogbookCore

/// The hash chain: `H_i = SHA-256(H_{i-1} ‖ payload_i)` over logical payloads, so re-framing
/// does not change it. The genesis value is a domain-separated constant.
enum Chain {
    static let genesis: [UInt8] = JournalHash.sha256(Array("logbook-journal-v1".utf8))

    static func next(_ head: [UInt8], _ payload: [UInt8]) -> [UInt8] {
        JournalHash.sha256(head, payload)
    }
}

/// One decoded record of a segment and where it lies.
struct ScannedRecord: Sendable {
    var sequence: UInt64
    var record: LogicalRecord
    var start: Int
    var end: Int
    /// Chain head before this record.
    var headBefore: [UInt8]
}

/// What a segment holds up to its first bad record: the pure, in-memory half of recovery,
/// the reader and `verify` (the crash tests drive it on byte arrays).
struct SegmentContents: Sendable {
    var header: SegmentHeader?
    var records: [ScannedRecord] = []
    /// End of the last good record.
    var validEnd = 0
    /// Why parsing stopped (`clean` for EOF/preallocated space or a seal).
    var stop: Framing.Stop = .clean
    var sealed = false
    /// Last sequence number the segment holds (header's first − 1 when it holds none).
    var lastSequence: UInt64 = 0
    /// Chain head after the last good record.
    var head: [UInt8] = Chain.genesis
    var openTrips: [TripID: OpenTrip] = [:]
    /// False for readers: the open trips' running figures (a geodesic per point) are only
    /// needed by recovery.
    var tracksOpenTrips = true
    var nextTripID: UInt64 = 1
    /// Vehicles and named places, from the header and the entries after it.
    var carried = CarriedEntries()
    /// Count of user records (a point batch counts once).
    var userRecords = 0

    /// Parses `bytes` as segment `name`. `stopAfter` limits the records taken (reader bound).
    /// With `resuming`, parsing starts at its offset in its state: only the records after it
    /// are verified and returned (the open-trip and carried state is not tracked then).
    /// User records that end before `retainFrom` are verified and counted but not kept in
    /// ``records``: a tail resuming in a segment needs only what follows its position, and a
    /// segment's decoded points take about five times its bytes.
    static func parse(
        _ bytes: [UInt8], name: SegmentName, stopAfter: UInt64 = UInt64.max, blockSize: Int = Framing.blockSize,
        tracksOpenTrips: Bool = true, resuming: SegmentResume? = nil, retainFrom: UInt64 = 0
    ) -> SegmentContents {
        var c = SegmentContents()
        c.tracksOpenTrips = tracksOpenTrips
        if let r = resuming {
            c.header = r.header
            c.head = r.head
            c.lastSequence = r.lastSequence
            c.sealed = r.sealed
            c.validEnd = r.offset
        }
        var problem: String?
        let (validEnd, stop) = Framing.scan(bytes, from: resuming?.offset ?? 0, blockSize: blockSize) { found in
            let decoded: (sequence: UInt64, record: LogicalRecord)
            do { decoded = try RecordCodec.decode(found.payload) } catch {
                problem = "undecodable record at \(found.start): \(error)"
                return false
            }
            let seq = decoded.sequence
            if c.header == nil {
                guard case .header(let h) = decoded.record, seq == name.firstSequence,
                    h.previousLastSequence &+ 1 == seq
                else {
                    problem = "segment does not start with its header"
                    return false
                }
                c.header = h
                c.head = h.previousHead
                c.lastSequence = h.previousLastSequence
                c.nextTripID = h.nextTripID
                c.carried = h.carried
                for t in h.openTrips { c.openTrips[t.id] = t }
            } else {
                if c.sealed {
                    problem = "record after seal at \(found.start)"
                    return false
                }
                switch decoded.record {
                case .header:
                    problem = "second header at \(found.start)"
                    return false
                case .user(let r):
                    guard seq == c.lastSequence &+ 1 else {
                        problem = "sequence \(seq) where \(c.lastSequence &+ 1) was expected"
                        return false
                    }
                    if seq &+ r.sequenceCount &- 1 > stopAfter { return false }
                    c.apply(r)
                    c.lastSequence = seq &+ r.sequenceCount &- 1
                    c.userRecords += 1
                case .checkpoint(let cp):
                    guard seq == c.lastSequence, cp.head == c.head else {
                        problem = "checkpoint does not match the chain at \(found.start)"
                        return false
                    }
                case .seal, .recovery:
                    guard seq == c.lastSequence else {
                        problem = "internal record with sequence \(seq) at \(found.start)"
                        return false
                    }
                    if case .seal = decoded.record { c.sealed = true }
                }
            }
            if case .user(let r) = decoded.record, seq &+ r.sequenceCount &- 1 < retainFrom {
                // Verified and counted above; not kept.
            } else {
                c.records.append(ScannedRecord(
                    sequence: seq, record: decoded.record, start: found.start, end: found.end, headBefore: c.head))
            }
            c.head = Chain.next(c.head, found.payload)
            c.validEnd = found.end
            return true
        }
        if let problem {
            c.stop = .corrupt(problem)
        } else if c.validEnd != validEnd {
            c.stop = .clean  // stopped early at `stopAfter`
        } else {
            c.stop = stop
        }
        if c.header == nil, problem == nil, stop == .clean, !bytes.isEmpty, c.validEnd == 0 {
            c.stop = Framing.allZero(bytes, 0, bytes.count) ? .truncated : .corrupt("no segment header")
        }
        return c
    }

    /// Replays a user record into the open-trip state.
    mutating func apply(_ r: JournalRecord) {
        switch r {
        case .tripStarted(let s):
            openTrips[s.id] = OpenTrip(id: s.id, startTime: s.gpsTime?.nanoseconds)
            nextTripID = max(nextTripID, s.id.rawValue &+ 1)
        case .points(let id, let points):
            if tracksOpenTrips, var t = openTrips[id] {
                for p in points { t.add(p) }
                openTrips[id] = t
            }
        case .tripEnded(let e):
            openTrips[e.id] = nil
            nextTripID = max(nextTripID, e.id.rawValue &+ 1)
        case .tripReopened(let r):
            // Open again, its running figures continuing from those the record carries.
            var t = OpenTrip(id: r.id, startTime: r.startTime?.nanoseconds)
            if r.startTime == nil, let last = r.lastPoint {
                t.firstPointTime = last.time.nanoseconds - Int64(max(0, min(r.summary.duration, 1e9)) * 1e9)
            }
            t.lastPoint = r.lastPoint
            t.pointCount = UInt64(max(0, r.summary.pointCount))
            t.distance = r.summary.distance
            t.maxSpeed = r.summary.maxSpeed
            openTrips[r.id] = t
            nextTripID = max(nextTripID, r.id.rawValue &+ 1)
        case .entry(let e):
            carried.apply(e)
            // A split's second part took a trip number (from another writer, perhaps the
            // CLI's): it is never handed out again.
            if let n = e.splitTripNumber { nextTripID = max(nextTripID, n &+ 1) }
        case .signal:
            break
        }
    }
}
