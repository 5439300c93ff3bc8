// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import LogbookRecords
import LogbookTestSupport
import Testing

/// The contract of issue 21: every entry type, written the way the CLI writes it (the built
/// `logbook`, with no daemon: its own journal lock) and the way the web app writes it
/// (`EntryCommand.draft`, origin `web`, through logbookd's control socket), reads back the
/// same through every reader: the index (`logbook … --json`, the report CSV), the web API
/// (`logbook-web`), MQTT (the events topic, the per-vehicle state topics and what Home
/// Assistant's own entities make of them) and PostgreSQL. A real journal, daemon, broker and
/// database; the waits are on events (a reply, a topic message, a row).
@Suite(.serialized) struct ContractTests {
    @Test func everyEntryTypeReadsTheSameThroughEveryReader() async throws {
        let dir = try TemporaryDirectory("contract")
        defer { dir.remove() }
        let pg = try PostgresCluster(directory: dir.file("pg"))
        try FileManager.default.createDirectory(atPath: dir.file("broker"), withIntermediateDirectories: true)
        let broker = try Mosquitto(directory: dir.file("broker"))
        let sub = try Subscriber(port: broker.port, topics: ["logbook/#", "homeassistant/#"], output: dir.file("sub.txt"))
        defer { sub.stop() }
        let fixture = try await TripsFixture.write(stateDirectory: dir.file("state"), vehicle: "golf", count: 12)
        let world = try ContractWorld(dir: dir, broker: broker, pg: pg)
        defer { world.stop() }
        let uplink = try UplinkRun.start(config: world.config)
        defer { uplink.process.stop() }
        let plan = ContractPlan(trips: fixture.trips)
        _ = try await EntryAppender.append(
            plan.pendingFills.map { $0.record.entry(subject: $0.id, origin: "obd") }, recordedAt: plan.time(ago: 20),
            journalDirectory: dir.file("state/journal"), stateDirectory: dir.file("state"))

        // The CLI, no daemon running: `logbook` appends under the journal lock itself.
        for args in plan.cliWrites {
            let (status, out) = try world.cli(args)
            try #require(status == 0, "logbook \(args.joined(separator: " ")): \(out)")
        }
        // The web app's way: through logbookd's control socket.
        try await world.startDaemon()
        var last: UInt64 = 0
        for (name, fields) in plan.webWrites { last = try world.webWrite(name, fields) }
        try await world.startWeb()

        // Wait for every reader to have the last entry: the events topic and the vehicle state
        // topics (the ledger's journal_seq), the fleet store's cursor.
        let device = try #require(await deviceID(sub))
        let caughtUp = await eventually(.seconds(60)) {
            let m = sub.messages
            let event = m.contains { $0.1 == "logbook/\(device)/events" && (try? JSONValue.parse($0.2))?["seq"]?.doubleValue == Double(last) }
            let states = ["golf", "van", "polo"].allSatisfy { v in
                (m.last { $0.1 == "logbook/\(device)/vehicle/\(v)/state" }.flatMap { try? JSONValue.parse($0.2) }?["journal_seq"]?
                    .doubleValue ?? 0) >= Double(last)
            }
            let stored = (try? pg.psql("SELECT last_seq FROM devices")).flatMap { UInt64($0) } ?? 0
            return event && states && stored >= last
        }
        #expect(caughtUp, "uplink: \(uplink.process.log.suffix(2000))")

        let readers = try ContractReaders.read(
            world: world, pg: pg, messages: sub.messages, device: device, year: plan.year, ids: fixture.trips.map(\.id.description))
        #expect(readers.ha.status == 0, "Home Assistant: \(readers.ha.failures.prefix(10))")
        for agreement in ContractChecks.all(plan: plan, readers: readers) {
            let disagreeing = agreement.results.filter { !$0.ok }
            for d in disagreeing {
                let issue = "contract: \(agreement.type): \(d.reader) disagrees: \(d.detail)"
                if let known = d.known { withKnownIssue(Comment(rawValue: known)) { Issue.record(Comment(rawValue: issue)) } } else {
                    Issue.record(Comment(rawValue: issue))
                }
            }
            let agreeing = agreement.results.count - disagreeing.count
            print("contract: \(agreement.type): \(agreeing) readers agree"
                + (disagreeing.isEmpty ? "" : ", \(disagreeing.count) disagree (\(disagreeing.map { $0.reader + ($0.known.map { " — known: " + $0 } ?? "") }.joined(separator: "; ")))"))
        }
        withExtendedLifetime(broker) {}
    }

    /// The uplink's device id, from the first message under `logbook/`.
    func deviceID(_ sub: Subscriber) async -> String? {
        var id: String?
        _ = await eventually(.seconds(30)) {
            id = sub.messages.first { $0.1.hasPrefix("logbook/") && $0.1.hasSuffix("/availability") }?.1.split(separator: "/").dropFirst().first.map(String.init)
            return id != nil
        }
        return id
    }
}
