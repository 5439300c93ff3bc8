// SPDX-License-Identifier: MIT
import Foundation
import LogbookTestSupport
import Testing

/// Issue 23's small things on a journal the real daemon wrote from the Swiss drive: the trips
/// list fits 80 columns unless the terminal is wider, and a `--vehicle` filter naming no
/// vehicle is a usage error (exit 64), not an empty list.
@Suite(.serialized, .timeLimit(.minutes(5))) struct SmallThingsTests {
    func widest(_ text: String) -> Int { text.split(separator: "\n").map(\.count).max() ?? 0 }

    @Test func theTripsListFits80ColumnsAndWidensOnlyForAWiderTerminal() async throws {
        let dir = try TemporaryDirectory("lb-cols")
        defer { dir.remove() }
        let cli = try await CLI.onCopy(of: .swiss, in: dir)
        // A pipe and no COLUMNS: 80 columns, the route cut with "…" when it must be.
        let narrow = try cli.run(["trips", "list"], environment: ["COLUMNS": ""])
        #expect(narrow.status == 0, "\(narrow.err)")
        #expect(widest(narrow.out) <= 80, "\(narrow.out)")
        #expect(narrow.out.contains("Trip") && narrow.out.contains("Distance") && narrow.out.contains("Route"), "\(narrow.out)")
        // A voided trip says so without the reasons column.
        try cli.ok(["trips", "void", "1", "--reason", "test drive"])
        let voided = try cli.run(["trips", "list"], environment: ["COLUMNS": ""])
        #expect(voided.out.split(separator: "\n").contains { $0.hasPrefix("   1") && $0.contains("(void) ") } && widest(voided.out) <= 80, "\(voided.out)")
        // A wide terminal gets every column, the reasons and the whole route.
        let wide = try cli.run(["trips", "list"], environment: ["COLUMNS": "250"])
        #expect(wide.status == 0 && wide.out.contains("Start → end") && wide.out.contains("Max"), "\(wide.out)")
        #expect(widest(wide.out) > 80 && widest(wide.out) <= 250, "\(wide.out)")
        #expect(!wide.out.contains("…"), "\(wide.out)")
        // Every trip is on both, the same rows.
        #expect(narrow.out.split(separator: "\n").count == wide.out.split(separator: "\n").count)
        let at100 = try cli.run(["trips", "list"], environment: ["COLUMNS": "100"])
        #expect(widest(at100.out) <= 100, "\(at100.out)")
        // The dates' zone is named (issue 23 part 3): in the header when it fits the column
        // (`Date (UTC)`), else on the totals line; the 80-column fit holds either way.
        let header = narrow.out.split(separator: "\n").first.map(String.init) ?? ""
        #expect(header.contains("Date (UTC)") && !narrow.out.contains("dates in"), "\(narrow.out)")
        let berlin = try cli.run(["trips", "list"], environment: ["COLUMNS": "", "TZ": "Europe/Berlin"])
        let lines = berlin.out.split(separator: "\n")
        #expect(lines.last?.hasSuffix(" · dates in Europe/Berlin") == true && lines.first?.contains("Date (") == false, "\(berlin.out)")
        #expect(widest(berlin.out) <= 80, "\(berlin.out)")
        print("trips-list: widest line \(widest(narrow.out)) at 80 columns, \(widest(at100.out)) at 100, \(widest(wide.out)) at 250")
    }

    @Test func aVehicleFilterNamingNoVehicleIsAUsageError() async throws {
        let dir = try TemporaryDirectory("lb-vfilter")
        defer { dir.remove() }
        let cli = try await CLI.onCopy(of: .swiss, in: dir)
        let commands: [[String]] = [
            ["trips", "list", "--vehicle", "nope"], ["trips", "list", "--vehicle", "nope", "--json"],
            ["trips", "export", "--all", "--vehicle", "nope", "--format", "gpx"], ["fuel", "list", "--vehicle", "nope"],
            ["fuel", "pending", "--vehicle", "nope"], ["odometer", "list", "--vehicle", "nope"],
            ["stats", "--vehicle", "nope"],
        ]
        for command in commands {
            let r = try cli.run(command)
            #expect(r.status == 64, "\(command): \(r.status) \(r.err)")
            #expect(r.err.contains("no vehicle \"nope\" (known: golf)") && r.out.isEmpty, "\(command): \(r.err) \(r.out)")
        }
        // A known vehicle is no error, with or without trips.
        #expect(try cli.run(["trips", "list", "--vehicle", "golf"]).status == 0)
        #expect(try cli.run(["fuel", "list", "--vehicle", "golf"]).status == 0)
        print("vehicle-filter: \(commands.count) commands refuse an unknown --vehicle with exit 64")
    }
}
