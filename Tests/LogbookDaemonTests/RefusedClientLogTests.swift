// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookDaemon
import LogbookTestSupport
import Testing

/// A flood of refused clients must not flood the log (issue 13 §2: 936 lines a second).
@Suite struct RefusedClientLogTests {
    @Test(.timeLimit(.minutes(3)))
    func aFloodOfRefusedClientsLogsAboutOneLineASecondWithTheCount() async throws {
        var limits = ControlSocketService.Limits()
        limits.maxClients = 2
        let h = try await Harness.start(limits: limits)
        let holders = [try await h.connect(), try await h.connect()]
        try await holders[0].send(#"{"cmd":"status"}"# + "\n")
        _ = try await holders[0].readJSON()
        // Connect and hang up as fast as one process can, 200 times: a count, not a duration, so
        // a loaded machine (CI once managed 5 in 2.5 s beside a build) floods as much.
        let start = ContinuousClock.now
        var refused = 0
        for _ in 0..<200 {
            let c = try await h.connect()
            if try await c.readJSON()["error"]?["code"] == .string("too_many_clients") { refused += 1 }
        }
        let seconds = (ContinuousClock.now - start).seconds
        // A "client refused" line stands for itself plus the refusals held back before it; a
        // "more clients refused" summary only for the ones it counts.
        func accounting() -> (lines: [String], accounted: Int) {
            let lines = h.log.filter { $0.contains("too many clients") }
            let accounted = lines.map { line in
                let held = line.split(separator: "suppressed=").last.flatMap { Int($0.prefix { $0.isNumber }) } ?? 0
                return line.contains("more clients") ? held : 1 + held
            }.reduce(0, +)
            return (lines, accounted)
        }
        // The summary of the last second comes once that second has passed: wait for it.
        _ = await eventually(.seconds(10)) { accounting().accounted >= refused }
        let (lines, accounted) = accounting()
        print("control-socket: refused-client flood: \(refused) refused in \(String(format: "%.1f", seconds)) s, \(lines.count) log lines, every refusal counted: \(accounted == refused)")
        #expect(refused > 100, "the flood was too small to show anything: \(refused)")
        #expect(lines.count <= Int(seconds.rounded(.up)) + 2, "\(lines)")
        #expect(accounted == refused, "\(lines)")
        _ = holders
        #expect(try await h.stop() == nil)
    }
}
