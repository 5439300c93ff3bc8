// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookTestSupport
import Testing

/// `logbook trips …` and `logbook reindex` run as a person or a script would, on a journal
/// the real daemon wrote: text, JSON (parsed, names and values), units, bad input.
struct CLIChecks {
    let recording: DaemonJournalTests.Recording
    let trip: TripOverview

    func logbook(_ args: [String], environment: [String: String] = [:]) throws -> (status: Int32, out: String, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: TestPaths.product("logbook"))
        p.arguments = ["--config", recording.config] + args
        var env = ProcessInfo.processInfo.environment
        env["TZ"] = "UTC"
        for (k, v) in environment { env[k] = v }
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    func run() throws {
        let km = String(format: "%.1f km", trip.distance / 1000)
        let maxKmh = String(format: "%.0f km/h", trip.maxSpeed * 3.6)

        // The table, newest first, with its totals line.
        // A wide terminal: every column, the start and end reasons too (80 columns drop them).
        let list = try logbook(["trips", "list"], environment: ["COLUMNS": "160"])
        print("index-cli: trips list:\n\(list.out)")
        #expect(list.status == 0, "\(list.err)")
        let lines = list.out.split(separator: "\n")
        #expect(lines.first?.hasPrefix("Trip") == true)
        #expect(lines.contains { $0.contains("Golf") && $0.contains(km) && $0.contains("power:ACAD → power:ACAD") })
        #expect(lines.last?.hasPrefix("1 trip · \(km) · ") == true)

        // JSON for scripts: the live state's trip field names, SI units, ISO 8601.
        let json = try logbook(["trips", "list", "--json"])
        #expect(json.status == 0)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let trips = try #require(doc["trips"] as? [[String: Any]])
        let t = try #require(trips.first { ($0["discarded"] as? Bool) == false })
        #expect(t["id"] as? String == trip.id.description)
        #expect((t["vehicle"] as? [String: Any])?["id"] as? String == "golf")
        #expect((t["vehicle"] as? [String: Any])?["name"] as? String == "Golf")
        #expect(t["started_at"] as? String == trip.startedAt?.description)
        #expect(t["ended_at"] as? String == trip.endedAt?.description)
        #expect((t["started_at"] as? String).flatMap(ISO8601.parse) != nil)
        #expect(t["start_reason"] as? String == "power:ACAD" && t["end_reason"] as? String == "power:ACAD")
        #expect(t["distance_m"] as? Double == (trip.distance * 10).rounded() / 10)
        #expect(t["duration_s"] as? Double == trip.duration.rounded())
        #expect(abs((t["avg_speed_mps"] as? Double ?? 0) - trip.averageSpeed) < 1e-9)
        #expect(abs((t["max_speed_mps"] as? Double ?? 0) - trip.maxSpeed) < 1e-9)
        #expect(t["points"] as? Int == trip.pointCount)
        #expect(t["discarded"] as? Bool == false && t["recovered"] as? Bool == false && t["active"] as? Bool == false)
        #expect((doc["totals"] as? [String: Any])?["trips"] as? Int == 1)

        // One trip: stat cards, why it started and ended (the [trip] thresholds), the summary.
        let show = try logbook(["trips", "show", trip.id.description])
        print("index-cli: trips show:\n\(show.out)")
        #expect(show.status == 0)
        #expect(show.out.contains("│ Distance") && show.out.contains(km) && show.out.contains(maxKmh))
        #expect(show.out.contains("power:ACAD on (the ignition-switched supply came on)"))
        #expect(show.out.contains("power:ACAD off for the 30 s grace"))
        let shown = try #require(try JSONSerialization.jsonObject(with: Data(try logbook(["trips", "show", trip.id.description, "--json"]).out.utf8)) as? [String: Any])
        let summary = try #require(shown["summary"] as? String)
        #expect(summary.hasPrefix("Trip on ") && summary.contains(", \(km) in ") && summary.hasSuffix(", max \(maxKmh), Golf"))
        #expect(shown["end_explained"] as? String == "power:ACAD off for the 30 s grace")
        #expect(show.out.contains("Share    \(summary)"))

        // Imperial by configuration (here its environment override).
        let imperial = try logbook(["trips", "show", trip.id.description], environment: ["LOGBOOKD_UNITS_SYSTEM": "imperial"])
        #expect(imperial.out.contains(String(format: "%.1f mi", trip.distance / 1609.344)) && imperial.out.contains(" mph"))

        // Filters.
        let after = try #require(trip.startedAt).nanoseconds / 1_000_000_000 + 86_400 * 2
        var day = tm()
        var secs = time_t(after)
        gmtime_r(&secs, &day)
        let later = String(format: "%04d-%02d-%02d", day.tm_year + 1900, day.tm_mon + 1, day.tm_mday)
        #expect(try logbook(["trips", "list", "--since", later]).out.hasPrefix("No trips"))
        #expect(try logbook(["trips", "list", "--until", later, "--vehicle", "golf", "--limit", "5"]).out.contains(km))

        // Bad input: one line, the documented exit codes.
        for (args, env, status, message) in [
            (["trips", "show", "999"], [:], Int32(1), "no trip 999"),
            (["trips", "show", "abc"], [:], 64, "not a trip number"),
            (["trips", "list", "--since", "2029-13-40"], [:], 64, "--since"),
            (["trips", "list", "--until", "yesterday"], [:], 64, "--until"),
            (["trips", "list", "--limit", "0"], [:], 64, "--limit"),
            (["trips", "list", "--vehicle", "zoe"], [:], 64, "--vehicle: no vehicle \"zoe\""),
            (["trips", "list"], ["LOGBOOKD_UNITS_SYSTEM": "furlongs"], 78, "units.system"),
        ] as [([String], [String: String], Int32, String)] {
            let r = try logbook(args, environment: env)
            #expect(r.status == status, "\(args): \(r.err)")
            #expect(r.err.contains(message) && r.err.split(separator: "\n").count == 1, "\(args): \(r.err)")
        }

        // Rebuild: plain progress lines when not on a terminal, then the throughput.
        let reindex = try logbook(["reindex"])
        print("index-cli: reindex:\n\(reindex.out)")
        #expect(reindex.status == 0)
        #expect(reindex.out.contains("reindex: 100 %") || reindex.out.contains(" % (seq "))
        #expect(reindex.out.contains("points/s"))
    }
}
