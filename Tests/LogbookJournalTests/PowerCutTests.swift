// SPDX-License-Identifier: MIT
import Foundation
import Testing

import LogbookCore
import LogbookTestSupport
@testable import LogbookJournal

/// Simulated power cuts (docs/journal.md, "Tests"): the real writer and recovery code
/// run on ``SimulatedDisk``; the cut comes at a random I/O call, unsynced sectors are kept,
/// dropped, zeroed or garbled, and sometimes recovery itself is cut and run again.
@Suite struct PowerCutTests {
    static let cases = Int(ProcessInfo.processInfo.environment["JOURNAL_POWER_CUTS"] ?? "") ?? 20_000

    @Test func simulatedPowerCuts() async throws {
        // Two shards (the CI machine has two cores); every case has its own seed and disk.
        let shards = 2
        let results = try await withThrowingTaskGroup(of: (Int, Int, [String]).self) { group in
            for shard in 0..<shards {
                group.addTask {
                    // Half a minute of computing: on threads of their own, not the test pool's.
                    try await onOwnThread("lb-test-cut\(shard)") {
                        var violations = 0, lost = 0, failures: [String] = []
                        for c in stride(from: shard, to: Self.cases, by: shards) {
                            var rng = SplitMix64(seed: 0x5EED_0000 + UInt64(c))
                            let r = try Self.runCase(&rng)
                            violations += r.violations
                            lost += r.lost
                            if r.violations + r.lost > 0 && failures.count < 5 { failures.append("case \(c): \(r.detail)") }
                        }
                        return (violations, lost, failures)
                    }
                }
            }
            return try await group.reduce(into: [(Int, Int, [String])]()) { $0.append($1) }
        }
        let violations = results.reduce(0) { $0 + $1.0 }, lost = results.reduce(0) { $0 + $1.1 }
        let failures = results.flatMap(\.2)
        reportFigure("simulated power cuts", cases: Self.cases, violations: violations, lost: lost)
        #expect(violations == 0, "\(failures)")
        #expect(lost == 0, "\(failures)")
    }

    /// One scenario: some good commits, a cut during a later commit (or rotation), recovery
    /// (itself cut in one case of five), check, then write on and check again.
    static func runCase(_ rng: inout SplitMix64) throws -> (violations: Int, lost: Int, detail: String) {
        let sizes = [1200, 3000, 8000, 40000]
        var h = CrashHarness(
            blockSize: rng.next() % 2 == 0 ? 512 : Framing.blockSize, segmentSize: sizes[Int(rng.next() % 4)])
        var core = try h.open()
        let commits = 1 + Int(rng.next() % 8)
        let cutAt = Int(rng.next() % UInt64(commits))
        for j in 0..<commits {
            if j == cutAt { h.disk.failAt = h.disk.operations + 1 + Int(rng.next() % 12) }
            do { try h.commit(core, &rng) } catch is PowerCut { break }
        }
        h.disk.crash(&rng)
        if rng.next() % 5 == 0 {
            // Cut the power again during recovery.
            h.disk.failAt = h.disk.operations + 1 + Int(rng.next() % 8)
            do { core = try h.open() } catch is PowerCut {}
            h.disk.crash(&rng)
        }
        core = try h.open()
        var result = h.check(verify: rng.next() % 10 == 0)
        if result.violations + result.lost > 0 || rng.next() % 4 != 0 { return result }
        // The recovered journal must accept new records and stay consistent.
        try h.adoptRecovered()
        for _ in 0..<Int(rng.next() % 3) { try h.commit(core, &rng) }
        h.disk.crash(&rng)
        core = try h.open()
        result = h.check()
        return result
    }
}
