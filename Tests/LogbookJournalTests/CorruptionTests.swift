// SPDX-License-Identifier: MIT
import Crypto
import LogbookCore
import LogbookTestSupport
import Testing

@testable import LogbookJournal

/// A small sealed multi-segment journal on a simulated disk: 512-byte blocks (instead of
/// 32 KiB) so a few KiB hold FULL, FIRST, MIDDLE and LAST fragments and several block and
/// segment boundaries, which keeps every-byte sweeps affordable in a debug build.
struct Fixture {
    var harness: CrashHarness
    /// Segment files in journal order with their global start offsets.
    var segments: [(path: String, start: Int, bytes: [UInt8])] = []
    /// Global end offset and last sequence of every user record.
    var recordEnds: [(end: Int, lastSeq: UInt64)] = []
    var total: Int { segments.last.map { $0.start + $0.bytes.count } ?? 0 }

    static func make() throws -> Fixture {
        var h = CrashHarness(blockSize: 512, segmentSize: 2000)
        var rng = SplitMix64(seed: 0xF1C5)
        let core = try h.open()
        for i in 0..<8 {
            if i == 4 {
                // One record far larger than a block: FIRST, MIDDLE…, LAST.
                let trip = TripID(h.nextTrip)
                h.nextTrip += 1
                let batch: [(UInt64, JournalRecord)] = [
                    (h.nextSequence, .tripStarted(TripStarted(id: trip, reason: "manual", monotonicNanoseconds: 1, bootID: "b"))),
                    (h.nextSequence + 1, .points(trip, Array(testPoints[0..<45]))),
                ]
                for (s, r) in batch { h.written[s] = r }
                h.nextSequence += 46
                h.openTrip = trip
                try core.commit(batch, checkpoint: false)
                h.ackedUpTo = h.nextSequence - 1
            } else {
                try h.commit(core, &rng)
            }
        }
        try core.seal()
        var f = Fixture(harness: h)
        let names = SegmentName.segments(in: try h.disk.list(CrashHarness.directory))
        var start = 0
        for n in names {
            let path = CrashHarness.directory + "/" + n.fileName
            let bytes = try h.disk.read(path) ?? []
            f.segments.append((path, start, bytes))
            let c = SegmentContents.parse(bytes, name: n, blockSize: 512)
            for r in c.records {
                if case .user(let u) = r.record { f.recordEnds.append((start + r.end, r.sequence + u.sequenceCount - 1)) }
            }
            start += bytes.count
        }
        return f
    }

    /// A disk holding the fixture with `transform` applied to segment `index`'s bytes
    /// (nil removes the file).
    func disk(_ transform: (Int, [UInt8]) -> [UInt8]?) -> SimulatedDisk {
        let d = SimulatedDisk()
        for (i, s) in segments.enumerated() {
            guard let bytes = transform(i, s.bytes) else { continue }
            d.files[s.path] = SimulatedDisk.File(current: bytes, durable: bytes, unsynced: [])
        }
        d.durableNames = Set(d.files.keys)
        return d
    }
}

@Suite struct CorruptionTests {
    @Test func fixtureHasAllFragmentTypes() throws {
        let f = try Fixture.make()
        #expect(f.segments.count >= 3)
        var types = Set<UInt8>()
        for s in f.segments {
            var pos = 0
            while pos + 7 <= s.bytes.count {
                let left = 512 - pos % 512
                if left < 7 { pos += left; continue }
                let len = Int(s.bytes[pos + 4]) | Int(s.bytes[pos + 5]) << 8
                types.insert(s.bytes[pos + 6])
                pos += 7 + len
            }
        }
        #expect(types.isSuperset(of: [1, 2, 3, 4]))
        let report = verifyJournal(fs: f.disk { $1 }, directory: CrashHarness.directory, publicKey: sharedTestKey.publicKey, blockSize: 512)
        #expect(report.ok, "\(String(describing: report.problem))")
    }

    /// Cut the journal's byte stream (segments in order) at every offset: recovery must keep
    /// every record that ended before the cut and never return a corrupt one.
    @Test func truncateAtEveryByte() async throws {
        // Seconds of computing: on a thread of its own, not the test pool's (OwnThread.swift).
        let (total, violations, lost, failures) = try await onOwnThread("lb-test-trunc") { () throws -> (Int, Int, Int, [String]) in
            let f = try Fixture.make()
            var violations = 0, lost = 0, failures: [String] = []
            for cut in 0...f.total {
                let disk = f.disk { i, bytes in
                    let s = f.segments[i]
                    if s.start + bytes.count <= cut { return bytes }
                    if s.start <= cut { return Array(bytes[0..<(cut - s.start)]) }
                    return nil
                }
                var h = CrashHarness(disk: disk, blockSize: 512, segmentSize: 2000)
                h.written = f.harness.written
                h.ackedUpTo = f.recordEnds.last { $0.end <= cut }?.lastSeq ?? 0
                do {
                    _ = try h.open()
                    let r = h.check(verify: cut % 16 == 0)
                    violations += r.violations
                    lost += r.lost
                    if r.violations + r.lost > 0 && failures.count < 5 { failures.append("cut \(cut): \(r.detail)") }
                } catch {
                    violations += 1
                    if failures.count < 5 { failures.append("cut \(cut): recovery failed: \(error)") }
                }
            }
            return (f.total, violations, lost, failures)
        }
        reportFigure("truncate at every byte", cases: total + 1, violations: violations, lost: lost)
        #expect(violations == 0, "\(failures)")
        #expect(lost == 0, "\(failures)")
    }

    /// Flip one bit in every byte: `verify` must report every flip, and the reader must never
    /// return a record other than the one written. ("Acknowledged lost" does not apply: a
    /// flip damages sealed data; it is reported, not repaired, so it is printed as 0.)
    @Test func flipABitInEveryByte() async throws {
        let (total, undetected, failures) = try await onOwnThread("lb-test-flip") { () throws -> (Int, Int, [String]) in
            let f = try Fixture.make()
            var undetected = 0, failures: [String] = []
            for s in f.segments.indices {
                for offset in f.segments[s].bytes.indices {
                    let disk = f.disk { i, bytes in
                        guard i == s else { return bytes }
                        var b = bytes
                        b[offset] ^= UInt8(1 << (offset % 8))
                        return b
                    }
                    let report = verifyJournal(fs: disk, directory: CrashHarness.directory, publicKey: sharedTestKey.publicKey, blockSize: 512)
                    var h = CrashHarness(disk: disk, blockSize: 512, segmentSize: 2000)
                    h.written = f.harness.written
                    h.ackedUpTo = 0
                    let r = h.check()
                    if report.ok || r.violations > 0 {
                        undetected += 1
                        if failures.count < 5 { failures.append("segment \(s) offset \(offset): verify ok=\(report.ok) \(r.detail)") }
                    }
                }
            }
            return (f.total, undetected, failures)
        }
        reportFigure("flip a bit in every byte", cases: total, violations: undetected, lost: 0)
        #expect(undetected == 0, "\(failures)")
    }

    /// A forger who rewrites a point and fixes its CRC is caught by the chain.
    @Test func forgedRecordWithValidCRCIsDetected() throws {
        let f = try Fixture.make()
        let name = SegmentName(fileName: String(f.segments[1].path.dropFirst(CrashHarness.directory.count + 1)))
        let target = try #require(name)
        let c = SegmentContents.parse(f.segments[1].bytes, name: target, blockSize: 512)
        let victim = try #require(c.records.first { if case .user(.points) = $0.record { return true } else { return false } })
        guard case .user(.points(let trip, var points)) = victim.record else { return }
        points[0].latitude += 0.01
        let payload = RecordCodec.encode(.user(.points(trip, points)), sequence: victim.sequence)
        var reframed: [UInt8] = []
        Framing.frame(payload, at: victim.start, into: &reframed, blockSize: 512)
        #expect(reframed.count == victim.end - victim.start)
        let disk = f.disk { i, bytes in
            guard i == 1 else { return bytes }
            var b = bytes
            b.replaceSubrange(victim.start..<victim.end, with: reframed)
            return b
        }
        let report = verifyJournal(fs: disk, directory: CrashHarness.directory, publicKey: sharedTestKey.publicKey, blockSize: 512)
        #expect(!report.ok)
    }
}
