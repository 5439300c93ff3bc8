// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookTestSupport
import Testing

/// Unclassified trips chased (issue 27 part 3) on the two-week fixture history: the count and
/// the oldest one's age in dashboard.json and `logbook status`, and `[hooks] on_unclassified`
/// run at most once a day with its environment.
@Suite(.serialized) struct UnclassifiedTests {
    func dashboard(_ dir: TemporaryDirectory) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: dir.file("run/dashboard.json")))
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["unclassified"] as? [String: Any] ?? [:]
    }

    @Test func theCountAndTheOldestAreShownAndTheHookRunsOnceADay() async throws {
        let dir = try TemporaryDirectory("lb-uncl")
        defer { dir.remove() }
        let log = dir.file("hook.log")
        let hook = "[hooks]\non_unclassified = \"echo \\\"$LOGBOOK_EVENT $LOGBOOK_UNCLASSIFIED_COUNT $LOGBOOK_UNCLASSIFIED_OLDEST_TRIP $LOGBOOK_UNCLASSIFIED_OLDEST_ENDED_AT\\\" >> \(log)\"\n"
        let cli = try await FixtureHistory.make(in: dir, rules: hook)
        try cli.ok(["dashboard", "refresh"])
        let first = FixtureHistory.trips[0]
        let firstEnd = GPSTime(nanoseconds: first.start.nanoseconds + Int64(first.minutes * 60e9))
        let expectedAge = Date().timeIntervalSince1970 - Double(firstEnd.nanoseconds) / 1e9
        var u = try dashboard(dir)
        #expect(u["count"] as? Int == 30 && u["oldest_trip"] as? Int == 1 && u["oldest_ended_at"] as? String == ISO8601.format(firstEnd), "\(u)")
        #expect(abs((u["oldest_age_s"] as? Double ?? 0) - expectedAge) < 120, "\(u), expected about \(expectedAge) s")
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "unclassified 30 1 \(ISO8601.format(firstEnd))\n")

        // Classified: the count drops, the oldest moves on; the hook waits for tomorrow.
        try cli.ok(["trips", "classify", "1", "2", "commute"])
        u = try dashboard(dir)
        #expect(u["count"] as? Int == 28 && u["oldest_trip"] as? Int == 3, "\(u)")
        try cli.ok(["dashboard", "refresh"])
        #expect(try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").count == 1, "the hook ran twice in a day")

        // A day later (its stamp moved back 25 h) it runs again.
        let stamp = GPSTime(nanoseconds: Int64((Date().timeIntervalSince1970 - 25 * 3600) * 1e9))
        try (ISO8601.format(stamp) + "\n").write(toFile: dir.file("state/unclassified-hook.last"), atomically: true, encoding: .utf8)
        try cli.ok(["dashboard", "refresh"])
        #expect(try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").last.map(String.init) == "unclassified 28 3 \(ISO8601.format(GPSTime(nanoseconds: FixtureHistory.trips[2].start.nanoseconds + Int64(16 * 60e9))))")

        // `logbook status` says it under the live state (here an old live.json: no daemon).
        try #"{"schema":1,"updated_at":"2026-11-20T10:00:00Z"}"#.write(toFile: dir.file("run/live.json"), atomically: true, encoding: .utf8)
        let status = try cli.run(["status"])
        let days = Int(expectedAge / 86_400)
        #expect(status.out.contains("Unclassified: 28 trips, the oldest (trip 3) \(days) days old") || status.out.contains("Unclassified: 28 trips, the oldest (trip 3) \(days - 1) days old"), "\(status.out) \(status.err)")
        let runs = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").count
        print("unclassified: 30 trips waiting, oldest trip 1 (\(Int(expectedAge / 86_400)) days), \(u["count"] as? Int ?? -1) after two classified; on_unclassified ran \(runs) times over 3 refreshes, the last a day later")
    }
}
