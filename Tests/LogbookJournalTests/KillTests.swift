// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import Testing

@testable import LogbookJournal

/// The real writer process (`logbook-crash-writer`) is killed
/// with SIGKILL at a random moment, over and over — sometimes during its own recovery. Every
/// point it acknowledged (printed after `sync()` returned) must be readable afterwards.
@Suite struct KillTests {
    static let kills = Int(ProcessInfo.processInfo.environment["JOURNAL_KILLS"] ?? "") ?? 100

    /// `swift test` builds every executable of the package next to the test bundle.
    static var writerPath: String {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return exe.deletingLastPathComponent().appendingPathComponent("logbook-crash-writer").path
    }

    @Test func killNineMidStream() async throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        #expect(FileManager.default.isExecutableFile(atPath: Self.writerPath), "build logbook-crash-writer first")
        var rng = SplitMix64(seed: 0x1C11)
        var tail = JournalTail(directory: dir.journal)
        var readIndices = Set<Int>()
        var violations = 0, lost = 0, acknowledged = 0, failures: [String] = []
        for i in 0..<Self.kills {
            let first = i * 1_000_000
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Self.writerPath)
            process.arguments = [dir.path, String(first), String(1 + i % 5)]
            let out = Pipe()
            process.standardOutput = out
            try process.run()
            try await Task.sleep(for: .milliseconds(20 + Int(rng.next() % 130)))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            // The last complete ACK line names the highest durable point index of this run.
            var acked = -1
            for line in text.split(separator: "\n") where line.hasPrefix("ACK ") {
                let parts = line.split(separator: " ")
                if parts.count == 3, let idx = Int(parts[2]) { acked = max(acked, idx) }
            }
            for e in try tail.poll() {
                guard case .points(_, let points) = e.record else { continue }
                for p in points {
                    let idx = Int(p.time.wholeSeconds - 1_790_000_000)
                    let expectedLat = 47 + Double(idx % 1000) * 1e-4
                    if abs(p.latitude - expectedLat) > 1e-6 || readIndices.contains(idx) {
                        violations += 1
                        if failures.count < 5 { failures.append("kill \(i): bad or repeated point \(idx)") }
                    }
                    readIndices.insert(idx)
                }
            }
            if acked >= first {
                acknowledged += acked - first + 1
                let missing = (first...acked).filter { !readIndices.contains($0) }.count
                lost += missing
                if missing > 0 && failures.count < 5 { failures.append("kill \(i): \(missing) acknowledged points missing") }
            }
        }
        // A last clean open recovers the final crash; the whole journal must verify.
        let w = try JournalWriter.open(JournalConfiguration(directory: dir.journal, stateDirectory: dir.path), logger: quietLogger)
        try await w.close()
        let report = verifyJournal(directory: dir.journal, stateDirectory: dir.path)
        if !report.ok {
            violations += 1
            failures.append("verify: \(String(describing: report.problem))")
        }
        reportFigure("kill -9 of the writer process", cases: Self.kills, violations: violations, lost: lost)
        #expect(acknowledged > Self.kills, "the writer must acknowledge points before it is killed")
        #expect(violations == 0, "\(failures)")
        #expect(lost == 0, "\(failures)")
    }
}
