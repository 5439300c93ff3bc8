// SPDX-License-Identifier: MIT
import LogbookCore

@testable import LogbookJournal

/// One signing key for all simulated journals (key generation is not under test here).
let sharedTestKey = JournalSigningKey()

/// Drives ``JournalCore`` on a ``SimulatedDisk`` the way ``JournalWriter`` does, remembering
/// every record written and the highest acknowledged sequence, and checks what recovery and
/// the reader return against that.
struct CrashHarness {
    let disk: SimulatedDisk
    let blockSize: Int
    let segmentSize: Int
    var written: [UInt64: JournalRecord] = [:]
    var ackedUpTo: UInt64 = 0
    var nextSequence: UInt64 = 1
    var openTrip: TripID?
    var nextTrip: UInt64 = 1
    var pointIndex = 0
    var tick: UInt64 = 0
    static let directory = "/j"

    init(disk: SimulatedDisk = SimulatedDisk(), blockSize: Int, segmentSize: Int) {
        self.disk = disk
        self.blockSize = blockSize
        self.segmentSize = segmentSize
    }

    /// Opens (recovers) the journal; the harness continues from what recovery reports.
    mutating func open() throws -> JournalCore {
        let core = JournalCore(
            fs: disk, directory: Self.directory, segmentSize: segmentSize, key: sharedTestKey, bootID: "test",
            clock: { 0 })
        core.blockSize = blockSize
        _ = try core.recover()
        nextSequence = core.lastSequence &+ 1
        openTrip = nil
        nextTrip = core.nextTripID
        return core
    }

    /// After ``check()``: the recovered journal becomes the reference history.
    mutating func adoptRecovered() throws {
        var history: [UInt64: JournalRecord] = [:]
        try JournalReader.walk(fs: disk, directory: Self.directory, limit: .max, blockSize: blockSize) { _, seq, r in
            if case .user(let u) = r { history[seq] = u }
            return true
        }
        written = history
        ackedUpTo = nextSequence &- 1
    }

    /// A random batch of records like a drive produces: trip start, points, signals, trip end.
    mutating func randomBatch(_ rng: inout SplitMix64) -> [(UInt64, JournalRecord)] {
        var out: [(UInt64, JournalRecord)] = []
        func add(_ r: JournalRecord) {
            out.append((nextSequence, r))
            written[nextSequence] = r
            nextSequence += r.sequenceCount
        }
        let n = 1 + Int(rng.next() % 4)
        for _ in 0..<n {
            guard let trip = openTrip else {
                let id = TripID(nextTrip)
                nextTrip += 1
                openTrip = id
                add(.tripStarted(TripStarted(id: id, vehicleID: "golf", reason: "power:ignition", monotonicNanoseconds: tick, bootID: "b")))
                continue
            }
            switch rng.next() % 10 {
            case 0:
                add(.signal(SignalEvent(source: "power:ignition", on: rng.next() % 2 == 0, monotonicNanoseconds: tick)))
            case 1:
                add(.tripEnded(TripEnded(id: trip, reason: "manual", summary: .zero, monotonicNanoseconds: tick)))
                openTrip = nil
            default:
                let count = 1 + Int(rng.next() % (rng.next() % 8 == 0 ? 120 : 12))
                let points = Array(testPoints[(pointIndex % 19_000)..<(pointIndex % 19_000 + count)])
                pointIndex += count
                add(.points(trip, points))
            }
            tick += 1
        }
        return out
    }

    /// Commits one batch; acknowledges it only when the commit returned.
    mutating func commit(_ core: JournalCore, _ rng: inout SplitMix64) throws {
        let batch = randomBatch(&rng)
        try core.commit(batch, checkpoint: rng.next() % 8 == 0)
        if let last = batch.last { ackedUpTo = last.0 + last.1.sequenceCount - 1 }
    }

    /// Violations (a record returned that was never written as such, or out of order) and
    /// acknowledged records lost.
    func check(verify: Bool = false) -> (violations: Int, lost: Int, detail: String) {
        var violations = 0
        var seen: [UInt64: JournalRecord] = [:]
        var expected: UInt64 = 1
        var detail = ""
        do {
            try JournalReader.walk(fs: disk, directory: Self.directory, limit: .max, blockSize: blockSize) { _, seq, r in
                guard case .user(let u) = r else { return true }
                if seq != expected {
                    violations += 1
                    detail = "sequence \(seq), expected \(expected)"
                }
                expected = seq + u.sequenceCount
                if written[seq] != u {
                    if case .tripEnded(let e) = u, e.reason == "recovered", seq > ackedUpTo {
                        // Written by recovery after a crash: legitimate.
                    } else {
                        violations += 1
                        detail = "record \(seq) differs from what was written"
                    }
                }
                seen[seq] = u
                return true
            }
        } catch {
            violations += 1
            detail = "reader failed: \(error)"
        }
        if verify {
            // After recovery the whole journal must verify (chain, links, seals, signatures).
            let report = verifyJournal(fs: disk, directory: Self.directory, publicKey: sharedTestKey.publicKey, blockSize: blockSize)
            if let p = report.problem {
                violations += 1
                detail = "verify: \(p)"
            }
        }
        var lost = 0
        for (seq, r) in written where seq <= ackedUpTo && seen[seq] != r {
            lost += 1
            detail = "acknowledged record \(seq) lost"
        }
        return (violations, lost, detail)
    }
}
