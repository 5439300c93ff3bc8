// SPDX-License-Identifier: MIT
import Foundation
import LogbookTestSupport
import Testing

/// Correcting trips with `logbook` on journals the real daemon wrote from the Swiss and Munich
/// drives (no daemon running: the CLI appends under the journal's lock). Every view must agree:
/// `trips list --json`, `stats --json`, the report's CSV, a GPX export of `--all`, and an index
/// rebuilt from scratch.
@Suite(.serialized, .timeLimit(.minutes(10))) struct TripCorrectionTests {
    typealias Trip = [String: Any]

    func trips(_ cli: CLI, _ extra: [String] = []) throws -> (trips: [Trip], totals: [String: Any]) {
        let doc = try cli.ok(["trips", "list", "--json"] + extra).json()
        return (doc["trips"] as? [Trip] ?? [], doc["totals"] as? [String: Any] ?? [:])
    }

    func number(_ t: Trip?, _ key: String) -> Double { t?[key] as? Double ?? .nan }

    @Test func splitThenMergeBackGivesTheRecordedTripAndEveryViewAgrees() async throws {
        let dir = try TemporaryDirectory("lb-cli")
        defer { dir.remove() }
        let cli = try await CLI.onCopy(of: .swiss, in: dir)
        let before = try trips(cli)
        let original = try #require(before.trips.first { $0["id"] as? String == "1" })
        let distance = number(original, "distance_m"), points = original["points"] as? Int ?? 0
        let start = try #require(original["started_at"] as? String), end = try #require(original["ended_at"] as? String)
        // Split where the drive is half done, by the points' times in the CSV export.
        let csv = try cli.ok(["trips", "export", "1", "--format", "csv"]).out.split(separator: "\r\n").dropFirst()
        let middle = String(csv[csv.startIndex + csv.count / 2].split(separator: ",")[2])
        let split = try cli.ok(["trips", "split", "1", "--at", middle])
        let words = split.out.split(separator: " ").map(String.init)
        let second = try #require(words.firstIndex(of: "is").map { words[$0 + 2] }, "\(split.out)")
        #expect(split.out.contains("the second part is trip \(second) ("), "\(split.out)")

        let parts = try trips(cli)
        let first = try #require(parts.trips.first { $0["id"] as? String == "1" })
        let other = try #require(parts.trips.first { $0["id"] as? String == second })
        #expect(first["corrected"] as? Bool == true && other["corrected"] as? Bool == true)
        #expect(first["started_at"] as? String == start && other["ended_at"] as? String == end)
        #expect(first["end_reason"] as? String == "split" && other["start_reason"] as? String == "split")
        #expect(other["split_from"] as? String == "1")
        #expect(abs(number(first, "distance_m") + number(other, "distance_m") - distance) < 0.3, "a split never changes a total")
        #expect((first["points"] as? Int ?? 0) + (other["points"] as? Int ?? 0) == points)
        #expect(abs(number(parts.totals, "distance_m") - distance) < 0.3)
        let gpx = try cli.ok(["trips", "export", "--all", "--format", "gpx"]).out
        #expect(gpx.components(separatedBy: "<trk>").count - 1 == 2)
        #expect(gpx.components(separatedBy: "<trkpt ").count - 1 == points)
        let stats = try cli.ok(["stats", "--json"]).json()
        #expect(abs((stats["total_distance_km"] as? Double ?? 0) * 1000 - distance) < 2)
        print("cli-corrections: split: trip 1 at \(middle) into 1 (\(first["points"] ?? "?") points) and \(second) (\(other["points"] ?? "?") points), \(distance) m in all")

        try cli.ok(["trips", "merge", "1", second])
        let merged = try trips(cli)
        let back = try #require(merged.trips.first { $0["id"] as? String == "1" })
        #expect(merged.trips.allSatisfy { $0["id"] as? String != second })
        #expect(abs(number(back, "distance_m") - distance) < 0.3)
        #expect(back["points"] as? Int == points && back["started_at"] as? String == start && back["ended_at"] as? String == end)
        #expect((back["merged_from"] as? [String]) == [second])
        let shown = try cli.run(["trips", "show", second])
        #expect(shown.status == 1 && shown.err.contains("was merged into trip 1"), "\(shown.err)")

        let history = try cli.ok(["trips", "show", "1", "--history"]).out
        #expect(history.contains("split at") && history.contains("merged into trip 1") && history.contains("by cli"), "\(history)")
        try expectReindexAgrees(cli)
    }

    @Test func voidRestoreAndAssignReachListStatsExportAndReport() async throws {
        let dir = try TemporaryDirectory("lb-cli")
        defer { dir.remove() }
        let cli = try await CLI.onCopy(of: .munich, in: dir)
        let distance = number(try trips(cli).trips.first { $0["id"] as? String == "1" }, "distance_m")
        try cli.ok(["vehicles", "add", "polo", "--name", "Polo"])

        try cli.ok(["trips", "void", "1", "--reason", "test drive"])
        var now = try trips(cli)
        let voided = try #require(now.trips.first { $0["id"] as? String == "1" })
        #expect(voided["voided"] as? Bool == true && voided["void_reason"] as? String == "test drive")
        #expect(number(now.totals, "distance_m") == 0 && now.totals["voided"] as? Int == 1)
        #expect((try cli.ok(["stats", "--json"]).json()["total_distance_km"] as? Double ?? -1) == 0)
        #expect(!(try cli.ok(["trips", "export", "--all", "--format", "gpx"]).out.contains("<trk>")))
        #expect(try cli.ok(["trips", "export", "--all", "--include-voided", "--format", "gpx"]).out.contains("<trk>"))
        #expect(try cli.ok(["trips", "list"]).out.contains("(void)"))

        try cli.ok(["trips", "restore", "1", "--reason", "it was a real trip"])
        try cli.ok(["trips", "assign", "1", "--vehicle", "polo", "--driver", "Anna"])
        now = try trips(cli)
        let assigned = try #require(now.trips.first { $0["id"] as? String == "1" })
        #expect(assigned["voided"] as? Bool == false && (assigned["vehicle"] as? [String: Any])?["id"] as? String == "polo")
        #expect(assigned["driver"] as? String == "Anna")
        let polo = try cli.ok(["stats", "--vehicle", "polo", "--json"]).json()
        #expect(abs((polo["total_distance_km"] as? Double ?? 0) * 1000 - distance) < 1)
        #expect((try cli.ok(["stats", "--vehicle", "golf", "--json"]).json()["total_distance_km"] as? Double ?? -1) == 0)

        let year = String((assigned["started_at"] as? String ?? "").prefix(4))
        let report = try cli.ok(["report", "--year", year, "--format", "csv"]).out
        let header = report.split(separator: "\n").first.map { $0.split(separator: ",").map(String.init) } ?? []
        let row = try #require(report.split(separator: "\n").first { $0.hasPrefix("1,") }).split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let column = { (name: String) in header.firstIndex(of: name).map { row[$0] } }
        #expect(column("vehicle") == "polo" && column("driver") == "Anna" && column("status") == "corrected")
        // gpsd dates the 2008 drive in 2028, after these changes were made: none counts as made
        // after the trip (ReportTests checks the listing and the 7-day flag with known times).
        #expect(column("changes_after_trip") == "0" && column("late") == "")
        print("cli-corrections: void, restore, assign of the Munich trip: list, stats, export, report agree; report row \(row.prefix(5).joined(separator: ","))…")
        try expectReindexAgrees(cli)
    }

    @Test func badCorrectionsAreRefusedWithOneLineAndWriteNothing() async throws {
        let dir = try TemporaryDirectory("lb-cli")
        defer { dir.remove() }
        let cli = try await CLI.onCopy(of: .munich, in: dir)
        try cli.ok(["vehicles", "add", "old", "--name", "Old"])
        try cli.ok(["vehicles", "retire", "old"])
        try cli.ok(["trips", "void", "1", "--reason", "test"])
        let journal = dir.file("state/journal")
        let size = { try FileManager.default.contentsOfDirectory(atPath: journal).reduce(0) { sum, name in
            sum + ((try FileManager.default.attributesOfItem(atPath: journal + "/" + name)[.size] as? Int) ?? 0)
        } }
        let before = try size()
        let cases: [([String], Int32, String)] = [
            (["trips", "void", "99", "--reason", "x"], 64, "no trip 99"),
            (["trips", "void", "1", "--reason", "again"], 64, "trip 1 is void already"),
            (["trips", "restore", "2"], 64, "no trip 2"),
            (["trips", "assign", "1", "--vehicle", "old"], 64, "vehicle old is retired"),
            (["trips", "assign", "1", "--vehicle", "nope"], 64, "no vehicle \"nope\""),
            (["trips", "merge", "1", "1"], 64, "not consecutive"),
            (["trips", "split", "1", "--at", "2000-01-01T00:00:00Z"], 64, "is not inside trip 1"),
            (["trips", "split", "abc", "--at", "2000-01-01T00:00:00Z"], 64, "not a trip number"),
        ]
        for (args, status, words) in cases {
            let r = try cli.run(args)
            #expect(r.status == status && r.err.contains(words), "logbook \(args.joined(separator: " ")): \(r.status) \(r.err)")
            #expect(r.err.split(separator: "\n").count == 1, "one line: \(r.err)")
        }
        #expect(try size() == before, "a refused correction writes nothing")
    }

    @Test func killingTheCLIDuringACorrectionLeavesAllOrNone() async throws {
        let dir = try TemporaryDirectory("lb-cli")
        defer { dir.remove() }
        let cli = try await CLI.onCopy(of: .munich, in: dir)
        var outcomes = (voided: 0, untouched: 0)
        for round in 0..<12 {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: TestPaths.product("logbook"))
            p.arguments = ["--config", cli.config, "trips", round % 2 == 0 ? "void" : "restore", "1", "--reason", "round \(round)"]
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            // Anywhere from the index catch-up to the journal append: 0–300 ms.
            usleep(useconds_t(round * 25_000))
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            let verify = try cli.run(["verify"])
            #expect(verify.status == 0, "round \(round): \(verify.out) \(verify.err)")
            let trip = try #require(try trips(cli).trips.first { $0["id"] as? String == "1" })
            // Whatever happened, the trip reads as void or not, never anything in between.
            if trip["voided"] as? Bool == true { outcomes.voided += 1 } else { outcomes.untouched += 1 }
            #expect(trip["voided"] is Bool)
        }
        print("cli-corrections: kill -9 during 12 corrections: verify OK each time; trip 1 void after \(outcomes.voided), not after \(outcomes.untouched)")
    }

    /// `logbook reindex` from scratch gives the same list and stats.
    func expectReindexAgrees(_ cli: CLI) throws {
        let list = try cli.ok(["trips", "list", "--json"]).out, stats = try cli.ok(["stats", "--json"]).json()
        try cli.ok(["reindex"])
        #expect(try cli.ok(["trips", "list", "--json"]).out == list)
        let again = try cli.ok(["stats", "--json"]).json()
        #expect(again["total_distance_km"] as? Double == stats["total_distance_km"] as? Double)
    }
}
