// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookTestSupport
import Testing

/// `logbook rules` on a two-week test-made history (``FixtureHistory``), no daemon, the built
/// `logbook`: `[[rule]]` tables and rules added with the CLI, `rules test` (writes nothing),
/// `rules apply` (a person's classification survives), the rules at trip end (`dashboard
/// refresh`, which logbookd runs after each trip), bad rules refused naming the key.
@Suite(.serialized) struct RulesTests {
    static let configRules = """
        [[rule]]
        name = "commute-out"
        start_place = "home"
        end_place = "office"
        weekdays = "mon-fri"
        time = "06:00-10:00"
        class = "commute"

        [[rule]]
        name = "commute-back"
        start_place = "office"
        end_place = "home"
        weekdays = "mon-fri"
        time = "15:00-20:00"
        class = "commute"

        [[rule]]
        name = "weekend"
        weekdays = "sat,sun"
        class = "private"

        """

    /// Trip number → (class, classified_by) from the report's CSV.
    func report(_ cli: CLI) throws -> [Int: (String, String)] {
        let lines = try cli.ok(["report", "--year", "2026", "--format", "csv"]).out.split(separator: "\n").map(String.init)
        let header = lines[0].split(separator: ",").map(String.init)
        guard let trip = header.firstIndex(of: "trip"), let cls = header.firstIndex(of: "class"), let by = header.firstIndex(of: "classified_by") else {
            throw CLIFailure("report columns missing: \(lines[0])")
        }
        var out: [Int: (String, String)] = [:]
        for line in lines.dropFirst() where !line.hasPrefix("#") {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if let n = Int(f[trip]) { out[n] = (f[cls], f[by]) }
        }
        return out
    }

    @Test func rulesClassifyTheHistoryAsListedByHandAndNeverAPersonsTrips() async throws {
        let dir = try TemporaryDirectory("lb-rules")
        defer { dir.remove() }
        let cli = try await FixtureHistory.make(in: dir, rules: Self.configRules)
        try cli.ok(["rules", "add", "shop", "--end-place", "shop", "--class", "private", "--purpose", "Groceries"])
        try cli.ok(["rules", "add", "from-shop", "--start-place", "shop", "--class", "private"])
        let listed = try cli.ok(["rules", "list"]).out
        #expect(listed.contains("1. commute-out: start home, end office, mon-fri, 06:00-10:00 → commute (config)"), "\(listed)")
        #expect(listed.contains("5. from-shop: start shop → private (journal)"), "\(listed)")

        // A person classifies two trips first: the rules must leave them alone.
        try cli.ok(["trips", "classify", "1", "business", "--purpose", "Client visit"])
        try cli.ok(["trips", "classify", "15", "business", "--purpose", "Trade fair"])

        // `rules test` lists and writes nothing.
        let before = try FixtureHistory.journalBytes(dir.file("state"))
        let tested = try cli.ok(["rules", "test", "commute-out", "--since", "2026-11-01", "--json"])
        let testedTrips = (try JSONSerialization.jsonObject(with: Data(tested.out.utf8)) as? [[String: Any]] ?? []).compactMap { $0["trip"] as? Int }
        #expect(testedTrips == [3, 5, 9, 11, 17, 19, 21, 27], "commute-out alone, trip 1 is the person's: \(testedTrips)")
        #expect(try FixtureHistory.journalBytes(dir.file("state")) == before, "rules test wrote to the journal")

        let applied = try cli.ok(["rules", "apply", "--since", "2026-11-01"]).out
        let expectedCount = FixtureHistory.trips.enumerated().filter { $0.element.expected != nil && ![0, 14].contains($0.offset) }.count
        #expect(applied.contains("\(expectedCount) trips classified."), "\(applied)")

        let classes = try report(cli)
        var wrong: [String] = []
        for (i, trip) in FixtureHistory.trips.enumerated() {
            let n = i + 1
            var want = (trip.expected ?? "unclassified", trip.rule.map { "rule \($0)" } ?? "")
            if n == 1 || n == 15 { want = ("business", "person") }
            let got = classes[n] ?? ("missing", "")
            if got != want { wrong.append("trip \(n) \(trip.time) day \(trip.day): got \(got), want \(want)") }
        }
        #expect(wrong.isEmpty, "\(wrong.joined(separator: "\n"))")
        print("rules: \(FixtureHistory.trips.count) trips, \(expectedCount) classified by rules, 2 by a person kept, \(wrong.count) differ from the hand list")

        // Applied again: nothing left to change.
        #expect(try cli.ok(["rules", "apply", "--since", "2026-11-01"]).out.contains("0 trips classified."))

        // At trip end: `dashboard refresh` (logbookd runs it after every trip end) classifies
        // the new trip; one a person classified before the refresh stays theirs.
        let monday = FixtureHistory.t(14, "07:30", "home", "office", 8.2, 18, "commute", "commute-out")
        try await FixtureHistory.append([monday], state: dir.file("state"))
        try cli.ok(["dashboard", "refresh"])
        #expect(try report(cli)[31].map { [$0.0, $0.1] } == ["commute", "rule commute-out"])
        try await FixtureHistory.append([FixtureHistory.t(14, "17:15", "office", "home", 8.6, 24, "commute", "commute-back")], state: dir.file("state"))
        try cli.ok(["trips", "classify", "32", "private"])
        try await FixtureHistory.append([FixtureHistory.t(15, "07:30", "home", "office", 8.0, 17, "commute", "commute-out")], state: dir.file("state"))
        try cli.ok(["dashboard", "refresh"])
        let after = try report(cli)
        #expect(after[32].map { [$0.0, $0.1] } == ["private", "person"] && after[33].map { [$0.0, $0.1] } == ["commute", "rule commute-out"])

        // A removed rule classifies nothing more; a config rule is removed in the file.
        try cli.ok(["rules", "remove", "from-shop"])
        #expect(try !cli.ok(["rules", "list"]).out.contains("from-shop"))
        let configRemoval = try cli.run(["rules", "remove", "weekend"])
        #expect(configRemoval.status == 64 && configRemoval.err.contains("rule[2] of the configuration file"), "\(configRemoval.err)")
    }

    @Test func rulesAndTheirClassificationsGoThroughARunningLogbookd() async throws {
        let dir = try TemporaryDirectory("lb-rules-d")
        defer { dir.remove() }
        // No gpsd listens on port 9: logbookd waits for one and serves its control socket.
        let cli = try await FixtureHistory.make(in: dir, rules: Self.configRules + "[gpsd]\naddress = \"127.0.0.1:9\"\n")
        let daemon = try DaemonProcess(arguments: ["--config", cli.config])
        var ready = false
        for _ in 0..<100 where !ready {
            ready = FileManager.default.fileExists(atPath: dir.file("run/control.sock"))
            if !ready { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(ready, "no control socket: \(daemon.log)")
        let added = try cli.ok(["rules", "add", "shop", "--end-place", "shop", "--class", "private"]).out
        #expect(added.contains("Rule shop added") && added.contains("through logbookd"), "\(added)")
        let applied = try cli.ok(["rules", "apply", "--since", "2026-11-01", "--json"]).out
        let written = try JSONSerialization.jsonObject(with: Data(applied.utf8)) as? [[String: Any]] ?? []
        #expect(written.count == 25, "27 by the hand list less trips 8 and 23 (no from-shop rule here): \(applied)")
        let classes = try report(cli)
        #expect(classes[1].map { [$0.0, $0.1] } == ["commute", "rule commute-out"] && classes[7].map { [$0.0, $0.1] } == ["private", "rule shop"])
        #expect(classes[8].map { [$0.0, $0.1] } == ["unclassified", ""] && classes[13].map { [$0.0, $0.1] } == ["private", "rule weekend"])
        let history = try cli.ok(["trips", "show", "7", "--history"]).out
        #expect(history.contains("rule"), "\(history)")
        #expect(await daemon.stop() != nil)
    }

    @Test func badRulesAreRefusedNamingTheKey() async throws {
        let dir = try TemporaryDirectory("lb-rules-bad")
        defer { dir.remove() }
        let cli = try await FixtureHistory.make(in: dir, rules: "")
        let cases: [(String, String)] = [
            ("[[rule]]\nname = \"a\"\nstart_place = \"gym\"\nclass = \"private\"\n", "rule[0].start_place: no named place has id \"gym\""),
            ("[[rule]]\nname = \"a\"\nvehicle = \"van\"\nclass = \"private\"\n", "rule[0].vehicle: no vehicle has id \"van\""),
            ("[[rule]]\nname = \"a\"\nclass = \"private\"\n", "rule[0].class: a rule needs at least one condition"),
            ("[[rule]]\nname = \"a\"\ntime = \"18:00-18:00\"\nclass = \"private\"\n", "rule[0].time: the window \"18:00-18:00\" is empty"),
            ("[[rule]]\nname = \"a\"\ntime = \"25:00-26:00\"\nclass = \"private\"\n", "rule[0].time: \"25:00\" is not a time of day"),
            ("[[rule]]\nname = \"a\"\nweekdays = \"mon-fir\"\nclass = \"private\"\n", "rule[0].weekdays: unknown weekday \"fir\""),
            ("[[rule]]\nname = \"a\"\nweekdays = \"sat\"\nclass = \"leisure\"\n", "rule[0].class: class must be one of business, private, commute"),
            ("[[rule]]\nname = \"a\"\nweekdays = \"sat\"\nclass = \"private\"\ncolour = \"red\"\n", "rule[0].colour: unknown key"),
        ]
        let base = try String(contentsOfFile: cli.config, encoding: .utf8)
        for (rule, message) in cases {
            let config = dir.file("bad.toml")
            try (base + rule).write(toFile: config, atomically: true, encoding: .utf8)
            let r = try CLI(config: config).run(["rules", "list"])
            #expect(r.status == 78 && r.err.contains(message), "\(rule): exit \(r.status), \(r.err)")
        }
        let refusals: [([String], String)] = [
            (["rules", "add", "a", "--weekdays", "tues", "--class", "private"], "unknown weekday \"tues\""),
            (["rules", "add", "a", "--start-place", "gym", "--class", "private"], "--start-place: no named place has id \"gym\""),
            (["rules", "add", "a", "--class", "private"], "a rule needs at least one condition"),
            (["rules", "add", "a", "--time", "7-9", "--class", "private"], "expected a local time window like 07:00-09:30"),
        ]
        let bytes = try FixtureHistory.journalBytes(dir.file("state"))
        for (args, message) in refusals {
            let r = try cli.run(args)
            #expect(r.status == 64 && r.err.contains(message) && r.err.split(separator: "\n").count == 1, "\(args): exit \(r.status), \(r.err)")
        }
        #expect(try FixtureHistory.journalBytes(dir.file("state")) == bytes, "a refused rule was written")
    }
}
