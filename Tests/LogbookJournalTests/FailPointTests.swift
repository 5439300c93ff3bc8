// SPDX-License-Identifier: MIT
import Testing

import LogbookCore
import LogbookTestSupport
@testable import LogbookJournal

/// A scripted run with several segment rotations is cut at every
/// single I/O call (create, allocate, write, fdatasync, fsync(dir), truncate, remove), with
/// three different tearings each; then recovery itself is cut at each of its first I/O calls
/// and run again (a double crash).
@Suite struct FailPointTests {
    /// The scripted run: small segments so it rotates; returns its harness.
    static func script(failAt: Int?, _ rng: inout SplitMix64) throws -> CrashHarness {
        var h = CrashHarness(blockSize: 512, segmentSize: 1200)
        let core = try h.open()
        h.disk.failAt = failAt
        do {
            for _ in 0..<10 { try h.commit(core, &rng) }
            try core.seal()
        } catch is PowerCut {}
        return h
    }

    @Test func cutDuringRotationAndRecovery() async throws {
        // Seconds of computing: on a thread of its own, not the test pool's (OwnThread.swift).
        let (cases, rotations, totalOps, violations, lost, failures) = try await onOwnThread("lb-test-rot") {
            () throws -> (Int, Int, Int, Int, Int, [String]) in
            // How many I/O calls the uninterrupted script makes (after the initial open).
            var probe = SplitMix64(seed: 0x7070)
            let clean = try Self.script(failAt: nil, &probe)
            let totalOps = clean.disk.operations
            var cases = 0, violations = 0, lost = 0, failures: [String] = []
            var rotations = 0
            for k in 1...totalOps {
                for tear in 0..<3 {
                    for recoveryCut in [0, 1, 2, 3, 5, 8] {
                        var rng = SplitMix64(seed: 0x7070)
                        let base = try { () throws -> Int in
                            var h = CrashHarness(blockSize: 512, segmentSize: 1200)
                            _ = try h.open()
                            return h.disk.operations
                        }()
                        var h = try Self.script(failAt: base + k, &rng)
                        if k == totalOps && tear == 0 && recoveryCut == 0 {
                            rotations = SegmentName.segments(in: try h.disk.list(CrashHarness.directory)).count
                        }
                        var crashRng = SplitMix64(seed: UInt64(k * 16 + tear))
                        h.disk.crash(&crashRng)
                        if recoveryCut > 0 {
                            h.disk.failAt = h.disk.operations + recoveryCut
                            do { _ = try h.open() } catch is PowerCut {}
                            h.disk.crash(&crashRng)
                        }
                        cases += 1
                        do {
                            _ = try h.open()
                            let r = h.check(verify: true)
                            violations += r.violations
                            lost += r.lost
                            if r.violations + r.lost > 0 && failures.count < 5 {
                                failures.append("op \(k) tear \(tear) recovery cut \(recoveryCut): \(r.detail)")
                            }
                        } catch {
                            violations += 1
                            if failures.count < 5 { failures.append("op \(k): recovery failed: \(error)") }
                        }
                    }
                }
            }
            return (cases, rotations, totalOps, violations, lost, failures)
        }
        reportFigure("cut at every I/O call during rotation and recovery", cases: cases, violations: violations, lost: lost)
        #expect(rotations >= 3, "the script must rotate segments")
        #expect(totalOps >= 40)
        #expect(violations == 0, "\(failures)")
        #expect(lost == 0, "\(failures)")
    }
}
