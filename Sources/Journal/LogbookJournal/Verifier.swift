// SPDX-License-Identifier: MIT
#if canImport(Glibc)
    import Glibc
#endif

/// Where `verify` found the first problem.
public struct VerifyProblem: Sendable, Hashable, CustomStringConvertible {
    /// Segment file name.
    public var segment: String
    /// Byte offset in the segment of the last good record's end (where the bad data starts).
    public var offset: Int
    /// The last good sequence number before the problem.
    public var sequence: UInt64
    /// What is wrong.
    public var message: String

    /// `segment@offset (after seq N): message`.
    public var description: String { "\(segment) at offset \(offset), after seq \(sequence): \(message)" }
}

/// The outcome of ``verifyJournal(directory:publicKey:from:progress:)``.
public struct VerifyReport: Sendable, Hashable {
    /// Segments checked.
    public var segments = 0
    /// Bytes checked.
    public var bytes = 0
    /// User records checked (a point batch counts once).
    public var records = 0
    /// Points checked.
    public var points = 0
    /// Trips started in the checked range.
    public var trips = 0
    /// Checkpoints whose signature verified.
    public var checkpoints = 0
    /// Last sequence number checked.
    public var lastSequence: UInt64 = 0
    /// True when signatures were checked against the exported `journal.pub` rather than
    /// only against the key the journal names (which a forger could replace).
    public var keyTrusted = false
    /// Notes that are not problems (e.g. records superseded after a failed commit).
    public var notes: [String] = []
    /// The first problem, nil when the journal is intact.
    public var problem: VerifyProblem?

    /// True when no problem was found.
    public var ok: Bool { problem == nil }
}

/// Checks every segment's CRCs, record sequence, the SHA-256 chain across segments and every
/// checkpoint signature. Stops at the first problem.
///
/// - Parameters:
///   - publicKey: the trusted key (`journal.pub`); nil to trust the key each header names.
///   - from: skip segments that end before this sequence number (the chain is then trusted
///     from the first checked segment's header).
///   - progress: called with (bytes done, bytes total) after each segment.
public func verifyJournal(
    directory: String, publicKey: JournalPublicKey?, from: UInt64 = 0,
    progress: ((Int, Int) -> Void)? = nil
) -> VerifyReport {
    verifyJournal(fs: PosixFileSystem(), directory: directory, publicKey: publicKey, from: from, progress: progress)
}

/// The verifier on any file system (crash tests run it on a simulated disk).
func verifyJournal(
    fs: any JournalFileSystem, directory: String, publicKey: JournalPublicKey?, from: UInt64 = 0,
    blockSize: Int = Framing.blockSize, progress: ((Int, Int) -> Void)? = nil
) -> VerifyReport {
    var report = VerifyReport()
    report.keyTrusted = publicKey != nil
    let names: [SegmentName]
    do { names = SegmentName.segments(in: try fs.list(directory)) } catch {
        report.problem = VerifyProblem(segment: directory, offset: 0, sequence: 0, message: "\(error)")
        return report
    }
    let totalBytes = progress == nil ? 0 : names.reduce(0) { $0 + fileSize(directory + "/" + $1.fileName) }
    var previous: (name: SegmentName, contents: SegmentContents, size: Int)?
    for (i, name) in names.enumerated() {
        func fail(_ segment: SegmentName, _ offset: Int, _ seq: UInt64, _ message: String) {
            report.problem = VerifyProblem(segment: segment.fileName, offset: offset, sequence: seq, message: message)
        }
        let bytes: [UInt8]
        do { bytes = try fs.read(directory + "/" + name.fileName) ?? [] } catch {
            fail(name, 0, report.lastSequence, "\(error)")
            return report
        }
        let c = SegmentContents.parse(bytes, name: name, blockSize: blockSize)
        guard let header = c.header else {
            // An empty or all-zero segment is one whose creation failed (I/O error) before
            // its header was written; the next one must still link to the last real segment,
            // so skipping it hides nothing.
            if i < names.count - 1 && Framing.allZero(bytes, 0, bytes.count) {
                report.notes.append("\(name.fileName): no segment header (creation failed); skipped")
                continue
            }
            fail(name, 0, report.lastSequence, "no valid segment header (\(c.stop))")
            return report
        }
        if i < names.count - 1, c.lastSequence < from {
            previous = (name, c, bytes.count)
            continue
        }
        if let p = previous {
            let pc = p.contents
            if header.previousSealed {
                // A sealed predecessor must be intact to its last byte.
                if let problem = endProblem(pc, size: p.size) {
                    fail(p.name, pc.validEnd, pc.lastSequence, problem)
                    return report
                }
                guard pc.lastSequence == header.previousLastSequence, pc.head == header.previousHead else {
                    fail(name, 0, header.previousLastSequence, "segment does not continue the previous one")
                    return report
                }
            } else {
                // Abandoned after an I/O error: it counts up to previousLastSequence.
                // The head after the last counted record is the next record's "head before".
                let heads = pc.records.filter { $0.sequence <= header.previousLastSequence &+ 1 }.map(\.headBefore)
                    + (pc.lastSequence <= header.previousLastSequence ? [pc.head] : [])
                guard pc.lastSequence >= header.previousLastSequence, heads.contains(header.previousHead) else {
                    fail(name, 0, header.previousLastSequence, "segment does not continue the previous one")
                    return report
                }
                report.notes.append("\(p.name.fileName): abandoned after an I/O error; records after seq \(header.previousLastSequence) superseded")
            }
        } else if from == 0, header.previousLastSequence != 0 || header.previousHead != Chain.genesis {
            fail(name, 0, 0, "the journal does not start at sequence 1 (missing segment? use --from)")
            return report
        }
        if let trusted = publicKey, Array(trusted.rawRepresentation) != header.publicKey {
            fail(name, 0, header.previousLastSequence, "segment names a different signing key than journal.pub")
            return report
        }
        let key = publicKey ?? (try? JournalPublicKey(rawRepresentation: header.publicKey))
        for r in c.records {
            switch r.record {
            case .checkpoint(let cp):
                let message = JournalCore.checkpointMessage(
                    sequence: r.sequence, head: cp.head, gpsTime: cp.gpsTime, monotonic: cp.monotonicNanoseconds)
                guard let key, key.isValidSignature(cp.signature, for: message) else {
                    fail(name, r.start, r.sequence, "checkpoint signature does not verify")
                    return report
                }
                report.checkpoints += 1
            case .user(let u):
                report.records += 1
                if case .points(_, let p) = u { report.points += p.count }
                if case .tripStarted = u { report.trips += 1 }
            default: break
            }
        }
        report.segments += 1
        report.bytes += bytes.count
        report.lastSequence = c.lastSequence
        previous = (name, c, bytes.count)
        progress?(report.bytes, totalBytes)
    }
    // The last segment: sealed and intact, or active (ends in preallocated zeros).
    if let p = previous, report.problem == nil, p.contents.sealed || p.contents.stop != .clean,
        let problem = endProblem(p.contents, size: p.size)
    {
        report.problem = VerifyProblem(segment: p.name.fileName, offset: p.contents.validEnd, sequence: p.contents.lastSequence, message: problem)
    }
    return report
}

/// Why a segment that should be complete is not: torn, corrupt, unsealed or trailing bytes.
private func endProblem(_ c: SegmentContents, size: Int) -> String? {
    switch c.stop {
    case .truncated: return "torn record"
    case .corrupt(let why): return why
    case .clean:
        if !c.sealed { return "segment is not sealed" }
        if c.validEnd != size { return "bytes after the seal" }
        return nil
    }
}

private func fileSize(_ path: String) -> Int {
    var st = stat()
    return stat(path, &st) == 0 ? Int(st.st_size) : 0
}

/// ``verifyJournal(directory:publicKey:from:progress:)`` with the trusted key read from
/// `<stateDirectory>/journal.pub` when present.
public func verifyJournal(
    directory: String, stateDirectory: String, from: UInt64 = 0, progress: ((Int, Int) -> Void)? = nil
) -> VerifyReport {
    verifyJournal(
        directory: directory, publicKey: JournalKey.publicKey(stateDirectory: stateDirectory), from: from,
        progress: progress)
}
