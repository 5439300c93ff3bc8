// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import LogbookRecords
import LogbookTestSupport
import Testing

/// `logbook fuel pending|complete|dismiss` on the OBD source's pending fill-ups: a real
/// journal (the entries appended under its lock as logbookd's recorder makes them, origin
/// `obd`), no daemon, the built `logbook`.
@Suite(.serialized) struct PendingFillTests {
    static let t0 = GPSTime(seconds: 1_795_000_000)  // 2026-11-19

    func time(hours: Double) -> GPSTime { GPSTime(nanoseconds: Self.t0.nanoseconds + Int64(hours * 3600e9)) }

    func setUp(_ dir: TemporaryDirectory) async throws -> (CLI, [String]) {
        try """
            state_dir = "\(dir.file("state"))"
            runtime_dir = "\(dir.file("run"))"
            [[vehicle]]
            id = "golf"
            name = "Golf"
            tank_l = 50

            """.write(toFile: dir.file("logbookd.toml"), atomically: true, encoding: .utf8)
        let first = PendingFillRecord(vehicle: "golf", at: time(hours: 30), litresEstimated: 27.5, latitude: 48.137, longitude: 11.575,
                                      levelBefore: 20, levelAfter: 75, source: "elm")
        let second = PendingFillRecord(vehicle: "golf", at: time(hours: 60), litresEstimated: 8, levelBefore: 60, levelAfter: 76, source: "elm")
        let ids = [first, second].map { FuelRecord.subject(vehicle: "golf", at: $0.at) }
        let entries = [
            VehicleRecord(name: "Golf", tankLitres: 50).entry(subject: "golf", origin: "config"),
            OdometerRecord(vehicle: "golf", at: time(hours: 0), odometerKm: 50_000).entry(subject: "golf@0", origin: "cli"),
            FuelRecord(vehicle: "golf", at: time(hours: 1), odometerKm: 50_010, litres: 30, price: 51, currency: "CHF")
                .entry(subject: FuelRecord.subject(vehicle: "golf", at: time(hours: 1)), origin: "cli"),
            first.entry(subject: ids[0], origin: "obd"), second.entry(subject: ids[1], origin: "obd"),
        ]
        _ = try await EntryAppender.append(entries, recordedAt: time(hours: 61), journalDirectory: dir.file("state/journal"),
                                           stateDirectory: dir.file("state"))
        return (CLI(config: dir.file("logbookd.toml")), ids)
    }

    func list(_ cli: CLI, _ args: [String]) throws -> [[String: Any]] {
        try JSONSerialization.jsonObject(with: Data(try cli.ok(args + ["--json"]).out.utf8)) as? [[String: Any]] ?? []
    }

    @Test func aPendingFillUpIsCompletedOnceDismissedOnceAndOpenAgainWhenItsFillUpIsVoided() async throws {
        let dir = try TemporaryDirectory("lb-pend")
        defer { dir.remove() }
        let (cli, ids) = try await setUp(dir)

        var pending = try list(cli, ["fuel", "pending"])
        #expect(pending.compactMap { $0["id"] as? String } == ids.reversed(), "newest first: \(pending)")
        #expect(pending.last?["litres_estimated"] as? Double == 27.5 && pending.last?["state"] as? String == "open")
        #expect(try cli.ok(["fuel", "pending"]).out.contains("20 → 75 %"))

        // The price only: litres from the estimate, currency from the last fill-up, the
        // odometer as calibrated at that time (the last fill-up's, no trip since), time and
        // place from the adapter.
        let done = try cli.ok(["fuel", "complete", ids[0], "--price", "48.40"])
        #expect(done.out.contains("Pending fill-up \(ids[0]) completed"), "\(done.out)")
        let fill = try #require(try list(cli, ["fuel", "list"]).first { $0["pending"] as? String == ids[0] })
        #expect(fill["litres"] as? Double == 27.5 && fill["price"] as? Double == 48.4 && fill["currency"] as? String == "CHF")
        #expect(fill["odometer_km"] as? Double == 50_010 && fill["lat"] as? Double == 48.137, "\(fill)")
        #expect(fill["at"] as? String == ISO8601.format(time(hours: 30)))
        pending = try list(cli, ["fuel", "pending"])
        #expect(pending.compactMap { $0["id"] as? String } == [ids[1]])
        let all = try list(cli, ["fuel", "pending", "--all"])
        #expect(all.first { $0["id"] as? String == ids[0] }?["completed_by"] as? String == fill["id"] as? String)

        // Twice is refused, naming why; nothing is written.
        let again = try cli.run(["fuel", "complete", ids[0], "--price", "1"])
        #expect(again.status == 64 && again.err.contains("was completed by fuel log"), "\(again.err)")
        let unknown = try cli.run(["fuel", "dismiss", "golf@20200101T000000Z"])
        #expect(unknown.status == 64 && unknown.err.contains("no pending fill-up"), "\(unknown.err)")

        // Given litres and odometer win over the estimates; then dismissed, and gone.
        try cli.ok(["fuel", "dismiss", ids[1], "--reason", "sensor jump"])
        #expect(try cli.ok(["fuel", "pending"]).out.contains("No pending fill-ups."))
        #expect(try list(cli, ["fuel", "pending", "--all"]).first { $0["id"] as? String == ids[1] }?["state"] as? String == "dismissed")
        #expect(try cli.run(["fuel", "complete", ids[1], "--price", "9", "--litres", "8.2"]).status == 64)

        // Voiding the fill-up that completed it makes it pending again.
        try cli.ok(["fuel", "void", try #require(fill["id"] as? String)])
        pending = try list(cli, ["fuel", "pending"])
        #expect(pending.compactMap { $0["id"] as? String } == [ids[0]])
        try cli.ok(["fuel", "complete", ids[0], "--price", "50", "--litres", "28.1", "--odometer", "50420", "--currency", "EUR"])
        let second = try #require(try list(cli, ["fuel", "list"]).first { $0["pending"] as? String == ids[0] })
        #expect(second["litres"] as? Double == 28.1 && second["odometer_km"] as? Double == 50_420 && second["currency"] as? String == "EUR")
    }
}
