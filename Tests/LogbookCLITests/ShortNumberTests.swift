// SPDX-License-Identifier: MIT
import Foundation
import LogbookTestSupport
import Testing

/// Issue 23 part 4 in the CLI: fill-ups, odometer readings and service tasks by short number
/// (`#2`) as well as by their old ids; a fill-up's currency from `[units] currency`, else the
/// vehicle's last fill-up; and imperial input (miles, US gallons) journaled metric and shown
/// without a metric unit in any list or stat.
@Suite(.serialized, .timeLimit(.minutes(5))) struct ShortNumberTests {
    /// `fuel list --json`'s fill-ups.
    static func fills(_ cli: CLI) throws -> [[String: Any]] {
        try JSONSerialization.jsonObject(with: Data(try cli.ok(["fuel", "list", "--json", "--history"]).out.utf8)) as? [[String: Any]] ?? []
    }

    static func appendConfig(_ cli: CLI, _ text: String) throws {
        let old = try String(contentsOfFile: cli.config, encoding: .utf8)
        try (old + text).write(toFile: cli.config, atomically: true, encoding: .utf8)
    }

    @Test func numbersAndOldIdsAddressTheSameEntriesAndAnUnknownNumberIsRefused() async throws {
        let dir = try TemporaryDirectory("lb-nr")
        defer { dir.remove() }
        let cli = try await CLI.onCopy(of: .swiss, in: dir)
        for (i, odo) in [20_000, 20_400, 20_800].enumerated() {
            try cli.ok([
                "fuel", "add", "--vehicle", "golf", "--odometer", "\(odo)", "--litres", "40", "--price", "70", "--currency", "EUR",
                "--at", "2030-01-0\(i + 1)T08:00:00Z", "--no-position",
            ])
            try cli.ok(["odometer", "add", "--vehicle", "golf", "--odometer", "\(odo + 10)", "--at", "2030-01-0\(i + 1)T09:00:00Z"])
        }
        try cli.ok(["service", "add", "golf-oil", "--vehicle", "golf", "--name", "Oil", "--every-km", "15000", "--last-done-km", "20000"])
        try cli.ok(["service", "add", "golf-tyres", "--vehicle", "golf", "--name", "Tyres", "--every-months", "6"])

        let list = try cli.ok(["fuel", "list"]).out
        #expect(list.contains("#1 ") && list.contains("#3 ") && !list.contains("golf@"), "\(list)")
        let fills = try Self.fills(cli)
        let oldFuel = try #require(fills.first { ($0["number"] as? Double) == 1 }?["id"] as? String)
        #expect(oldFuel.hasPrefix("golf@"))
        let readings = try JSONSerialization.jsonObject(with: Data(try cli.ok(["odometer", "list", "--json"]).out.utf8)) as? [[String: Any]] ?? []
        let oldReading = try #require(readings.first { ($0["number"] as? Double) == 1 }?["id"] as? String)
        #expect(try cli.ok(["odometer", "list"]).out.contains("#3 "))
        #expect(try cli.ok(["service", "list"]).out.contains("#2 "))

        // (args, kind: 0 short number, 1 old id, 2 unknown number, what the reply or error must name)
        let cases: [([String], Int, String)] = [
            (["fuel", "amend", "2", "--note", "by number"], 0, "amended"),
            (["fuel", "void", "#3", "--reason", "typo"], 0, "voided"),
            (["fuel", "amend", oldFuel, "--note", "by id"], 1, "amended"),
            (["fuel", "void", "99"], 2, "#99"),
            (["fuel", "amend", "#0", "--note", "x"], 2, "#0"),
            (["odometer", "amend", "#2", "--note", "by number"], 0, "amended"),
            (["odometer", "void", "3"], 0, "voided"),
            (["odometer", "void", oldReading], 1, "voided"),
            (["odometer", "amend", "#42", "--note", "x"], 2, "#42"),
            (["service", "done", "1", "--odometer", "21000"], 0, "done"),
            (["service", "done", "golf-tyres"], 1, "done"),
            (["service", "remove", "#2"], 0, "removed"),
            (["service", "done", "#7"], 2, "#7"),
        ]
        var counts = [0, 0, 0]
        for (args, kind, named) in cases {
            let r = try cli.run(args)
            let ok = kind == 2 ? r.status == 64 && r.err.contains(named) : r.status == 0 && r.out.contains(named)
            #expect(ok, "\(args): \(r.status) \(r.out) \(r.err)")
            if ok { counts[kind] += 1 }
        }
        let after = try Self.fills(cli)
        let byNumber = Dictionary(uniqueKeysWithValues: after.compactMap { f in (f["number"] as? Double).map { (Int($0), f) } })
        #expect(byNumber[3]?["voided"] as? Bool == true && byNumber[2]?["changed"] as? Bool == true && byNumber[1]?["changed"] as? Bool == true)
        #expect(after.count == 3, "an unknown number writes nothing")
        print("number-ids: fuel/odometer/service: \(counts[0]) short numbers accepted, \(counts[1]) old ids accepted, \(counts[2]) unknown refused")
    }

    @Test func aFillUpsCurrencyComesFromTheConfigElseTheLastFillUp() async throws {
        let dir = try TemporaryDirectory("lb-cur")
        defer { dir.remove() }
        let cli = try await CLI.onCopy(of: .swiss, in: dir)
        var odometer = 30_000
        func add(_ extra: [String]) throws -> CLI.Result {
            odometer += 300
            return try cli.run(["fuel", "add", "--vehicle", "golf", "--odometer", "\(odometer)", "--litres", "40", "--price", "70", "--no-position"] + extra)
        }
        // Nothing to go by yet: refused naming the option, nothing written.
        let none = try add([])
        #expect(none.status == 64 && none.err.contains("--currency"), "\(none.status) \(none.err)")
        #expect(try Self.fills(cli).isEmpty)
        #expect(try add(["--currency", "gbp"]).status == 0)
        #expect(try add([]).status == 0)
        #expect(try Self.fills(cli).map { $0["currency"] as? String } .allSatisfy { $0 == "GBP" }, "the last fill-up's")
        try Self.appendConfig(cli, "[units]\ncurrency = \"chf\"\n")
        #expect(try add([]).status == 0)
        #expect(try add(["--currency", "EUR"]).status == 0)
        let currencies = try Self.fills(cli).sorted { ($0["number"] as? Double ?? 0) < ($1["number"] as? Double ?? 0) }.map { $0["currency"] as? String ?? "" }
        #expect(currencies == ["GBP", "GBP", "CHF", "EUR"], "typed, else config, else last fill-up: \(currencies)")
        let text = try String(contentsOfFile: cli.config, encoding: .utf8).replacingOccurrences(of: "currency = \"chf\"", with: "currency = \"euro\"")
        try text.write(toFile: cli.config, atomically: true, encoding: .utf8)
        let refused = try add([])
        #expect(refused.status == 78 && refused.err.contains("units.currency"), "\(refused.status) \(refused.err)")
        print("currency-default: cli: typed, then [units] currency, then the vehicle's last fill-up; none refused with exit 64")
    }

    @Test func imperialInputIsJournaledMetricAndShownInMilesAndGallons() async throws {
        let dir = try TemporaryDirectory("lb-imp")
        defer { dir.remove() }
        let cli = try await CLI.onCopy(of: .swiss, in: dir)
        try Self.appendConfig(cli, "[units]\nsystem = \"imperial\"\ncurrency = \"USD\"\n")
        var converted = 0
        for (i, (gallons, miles)) in zip(UnitInputCases.gallons, UnitInputCases.miles).enumerated() {
            try cli.ok([
                "fuel", "add", "--vehicle", "golf", "--odometer", miles.typed, "--gallons", gallons.typed, "--price", "40", "--no-position",
                "--at", "2030-02-0\(i + 1)T08:00:00Z",
            ])
            let fill = try #require(try Self.fills(cli).first { ($0["number"] as? Double) == Double(i + 1) })
            #expect(fill["litres"] as? Double == gallons.litres && fill["odometer_km"] as? Double == miles.km, "\(gallons) \(miles): \(fill)")
            if fill["litres"] as? Double == gallons.litres { converted += 1 }
            if fill["odometer_km"] as? Double == miles.km { converted += 1 }
        }
        let fuelList = try cli.ok(["fuel", "list"]).out
        for c in UnitInputCases.gallons { #expect(fuelList.contains(c.shown), "\(c.shown) in \(fuelList)") }
        for c in UnitInputCases.miles { #expect(fuelList.contains(c.shown), "\(c.shown) in \(fuelList)") }
        try cli.ok(["odometer", "add", "--vehicle", "golf", "--odometer", "10700", "--at", "2030-02-05T08:00:00Z"])
        let reading = try JSONSerialization.jsonObject(with: Data(try cli.ok(["odometer", "list", "--json"]).out.utf8)) as? [[String: Any]]
        #expect(reading?.first?["odometer_km"] as? Double == 17_219.981, "\(String(describing: reading))")
        if reading?.first?["odometer_km"] as? Double == 17_219.981 { converted += 1 }
        try cli.ok(["service", "add", "golf-oil", "--vehicle", "golf", "--name", "Oil", "--every-miles", "5000", "--last-done-odometer", "10000"])
        let task = try JSONSerialization.jsonObject(with: Data(try cli.ok(["service", "list", "--json"]).out.utf8)) as? [[String: Any]]
        #expect(task?.first?["due_km"] as? Double == 16_093.44 + 8_046.72, "\(String(describing: task))")
        if task?.first?["due_km"] as? Double == 16_093.44 + 8_046.72 { converted += 2 }
        try cli.ok([
            "fuel", "add", "--vehicle", "golf", "--odometer", "10800", "--gallons", "11", "--price", "44", "--lat", "47.3781", "--lon", "8.5402",
            "--station", "Migrolino", "--at", "2030-02-06T08:00:00Z",
        ])
        #expect(try cli.ok(["fuel", "stations"]).out.contains("11.00 gal"))
        let backwards = try cli.run(["fuel", "add", "--vehicle", "golf", "--odometer", "20000", "--gallons", "1", "--price", "4", "--no-position"])
        #expect(backwards.status == 64 && backwards.err.contains("20000.0 mi at") && !backwards.err.contains(" km"), "\(backwards.err)")
        try cli.ok(["vehicles", "add", "van", "--odometer", "1000", "--tank-gallons", "15"])
        let vans = try JSONSerialization.jsonObject(with: Data(try cli.ok(["vehicles", "list", "--json"]).out.utf8)) as? [[String: Any]]
        let van = vans?.first { $0["id"] as? String == "van" }
        #expect(van?["tank_l"] as? Double == 56.781 && van?["initial_odometer_km"] as? Double == 1_609.344, "\(String(describing: van))")
        if van?["tank_l"] as? Double == 56.781 { converted += 1 }
        if van?["initial_odometer_km"] as? Double == 1_609.344 { converted += 1 }
        var mixed: [String] = []
        for args in [
            ["fuel", "list"], ["fuel", "list", "--history"], ["odometer", "list"], ["service", "list"], ["stats"], ["stats", "--range", "all"],
            ["vehicles", "show", "van"], ["vehicles", "list"], ["fuel", "stations"], ["fuel", "pending", "--all"],
        ] {
            let out = try cli.ok(args).out
            mixed += UnitInputCases.metricLines(out).map { "\(args.joined(separator: " ")): \($0)" }
        }
        #expect(mixed.isEmpty, "\(mixed)")
        print("units-input: imperial: \(converted) inputs converted, \(mixed.count) mixed-unit lines")
    }
}
