// SPDX-License-Identifier: MIT
import Foundation
import LogbookTestSupport
import Testing

/// Every date option reads a date, a local time or ISO 8601 with Z or an offset in
/// `[units] time_zone`; a refusal names the flag (exit 64) and writes nothing.
@Suite(.serialized, .timeLimit(.minutes(5))) struct TimeInputTests {
    @Test func dateOptionsReadTheFormsPeopleTypeInTheConfiguredZone() async throws {
        let dir = try TemporaryDirectory("lb-time")
        defer { dir.remove() }
        let cli = try await CLI.onCopy(of: .swiss, in: dir)
        try (try String(contentsOfFile: cli.config, encoding: .utf8) + "[units]\ntime_zone = \"Europe/Berlin\"\n")
            .write(toFile: cli.config, atomically: true, encoding: .utf8)
        try cli.ok(["odometer", "add", "--vehicle", "golf", "--odometer", "90000", "--at", "2029-11-10 08:00"])
        var accepted = 0, refused = 0
        for (n, (typed, utc)) in TimeInputCases.berlin.enumerated() {
            // The instant lands in the entry's subject (`t3@20291110T070000Z`).
            let task = "t\(n)"
            try cli.ok(["service", "add", task, "--vehicle", "golf", "--name", "Oil", "--every-months", "12"])
            let r = try cli.run(["service", "done", task, "--at", typed, "--json"])
            if let utc {
                let compact = utc.filter { $0 != "-" && $0 != ":" }
                #expect(r.status == 0 && r.out.contains("\"\(task)@\(compact)\""), "--at \(typed): \(r.err) \(r.out)")
                accepted += 1
            } else {
                #expect(r.status == 64 && r.err.contains("--at:") && r.out.isEmpty, "--at \(typed): \(r.status) \(r.err)")
                refused += 1
            }
            // The other options read the same text the same way, and name themselves when refused.
            var others = [
                ["service", "add", "u\(n)", "--vehicle", "golf", "--name", "Oil", "--every-months", "12", "--last-done", typed],
                ["trips", "list", "--since", typed], ["trips", "list", "--until", typed],
            ]
            // Odometer readings must rise with time: only the refusals here.
            if utc == nil { others.append(["odometer", "add", "--vehicle", "golf", "--odometer", "\(90_000 + n)", "--at", typed]) }
            for args in others {
                let flag = args[args.count - 2]
                let other = try cli.run(args)
                #expect((other.status == 0) == (utc != nil), "\(flag) \(typed): \(other.status) \(other.err)")
                if utc == nil { #expect(other.status == 64 && other.err.contains("\(flag):"), "\(flag) \(typed): \(other.err)") }
            }
        }
        // Lists show the configured zone: the reading typed as 08:00 local reads 08:00, named.
        let list = try cli.ok(["odometer", "list"]).out
        #expect(list.contains("Europe/Berlin") && list.contains("2029-11-10 08:00"), "\(list)")
        // A zone tzdata does not know is a config error naming the key.
        try (try String(contentsOfFile: cli.config, encoding: .utf8).replacing("Europe/Berlin", with: "Mars/Olympus"))
            .write(toFile: cli.config, atomically: true, encoding: .utf8)
        let bad = try cli.run(["trips", "list"])
        #expect(bad.status == 78 && bad.err.contains("units.time_zone"), "\(bad.err)")
        print("time-input: cli: \(accepted) forms accepted, \(refused) refused")
    }
}
