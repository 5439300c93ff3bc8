// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import LogbookRecords
import LogbookTestSupport
import LogbookUplink
import Testing

/// Trouble codes (the OBD source's `dtc:` / `dtc-pending:` signals) through the uplink: the
/// ledger's fold, its file and rewinds, and over a real mosquitto the `fault_code` events and
/// the "Fault codes" sensor as Home Assistant's own code shows it.
@Suite(.serialized) struct FaultCodeUplinkTests {
    static func signal(_ source: String, on: Bool, vehicle: String? = "golf", at: GPSTime? = nil) -> JournalRecord {
        .signal(SignalEvent(source: source, vehicleID: vehicle, on: on, gpsTime: at, monotonicNanoseconds: 1))
    }

    static func items(_ j: JSONValue?) -> [JSONValue] {
        if case .array(let a)? = j { a } else { [] }
    }

    @Test func theLedgerFoldsCodesKeepsThemInItsFileAndDropsRewoundOnes() throws {
        let feed = LedgerFeed()
        feed.entry(VehicleRecord(name: "Golf"), subject: "golf")
        feed.add(Self.signal("dtc:P0420", on: true))
        feed.add(Self.signal("dtc-pending:P0133", on: true))
        feed.add(Self.signal("power:ignition", on: true))  // not a code: not kept
        feed.add(Self.signal("dtc:P0300", on: true))
        let beforeClear = feed.ledger.through
        feed.add(Self.signal("dtc:P0300", on: false))
        var codes = feed.view()["golf"]?.faultCodes.map(\.source)
        #expect(codes == ["dtc:P0420", "dtc-pending:P0133"], "stored first, cleared gone")
        #expect(feed.ledger.faultSignals.count == 4)
        let state = VehicleState.state(vehicle: "golf", live: nil, figures: feed.view()["golf"])
        #expect(state["fault_codes"]?.doubleValue == 2 && state["faults"]?["pending"]?.doubleValue == 1)
        #expect(Self.items(state["faults"]?["codes"]).first?["description"]?.stringValue == "Catalyst System Efficiency Below Threshold (Bank 1)")

        let restored = try #require(VehicleLedger(json: try JSONValue.parse(feed.ledger.json.serialized)))
        #expect(restored == feed.ledger)
        // A ledger file from before fault codes is rebuilt from the journal, not trusted.
        guard case .object(let members) = feed.ledger.json else { Issue.record("not an object"); return }
        #expect(VehicleLedger(json: .object(members.filter { $0.0 != "faults" })) == nil)

        feed.ledger.rewind(to: beforeClear)
        codes = feed.view()["golf"]?.faultCodes.map(\.source)
        #expect(codes == ["dtc:P0300", "dtc:P0420", "dtc-pending:P0133"], "the clearing was rewound")
    }

    @Test func faultCodeEventsAndTheHomeAssistantSensorArriveThroughMosquitto() async throws {
        let dir = try TemporaryDirectory("mqdtc")
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.file("broker"), withIntermediateDirectories: true)
        let broker = try Mosquitto(directory: dir.file("broker"))
        let journal = try await JournalFixture.write(stateDirectory: dir.file("state"), limit: 120) { last in
            [
                Self.signal("dtc:P0420", on: true, at: last), Self.signal("dtc-pending:P0133", on: true, at: last),
                Self.signal("dtc:P1234", on: true, at: last), Self.signal("dtc:P0300", on: true, at: last),
                Self.signal("dtc:P0300", on: false, at: last),
            ]
        }
        try writeUplinkConfig(dir.file("uplink.toml"), state: dir.file("uplink"), journal: journal.journalDirectory, mqtt: """
            host = "127.0.0.1"
            port = \(broker.port)
            """)
        let sub = try Subscriber(port: broker.port, topics: ["logbook/#", "homeassistant/#"], output: dir.file("sub.txt"))
        defer { sub.stop() }
        let uplink = try UplinkRun.start(config: dir.file("uplink.toml"))
        func events() -> [JSONValue] {
            sub.messages.filter { $0.1.hasSuffix("/events") }.compactMap { try? JSONValue.parse($0.2) }
                .filter { $0["type"]?.stringValue == "fault_code" }
        }
        func state() -> JSONValue? {
            sub.messages.last { $0.1.hasSuffix("/vehicle/golf/state") }.flatMap { try? JSONValue.parse($0.2) }
        }
        let expected = HADiscovery.entities.count
        #expect(await eventually(.seconds(60)) {
            events().count >= 5 && state()?["fault_codes"]?.doubleValue == 3
                && sub.messages.filter { $0.1.hasPrefix("homeassistant/") }.count >= expected
        }, "log: \(uplink.process.log)")
        let received = events()
        let p0420 = received.first { $0["code"]?.stringValue == "P0420" }
        #expect(p0420?["state"]?.stringValue == "new" && p0420?["pending"]?.boolValue == false && p0420?["vehicle"]?.stringValue == "golf")
        #expect(p0420?["description"]?.stringValue == "Catalyst System Efficiency Below Threshold (Bank 1)")
        #expect(received.first { $0["code"]?.stringValue == "P0133" }?["pending"]?.boolValue == true)
        // A maker's own code has no generic description.
        #expect(received.first { $0["code"]?.stringValue == "P1234" }?["description"]?.isNull == true)
        #expect(received.map { "\($0["code"]?.stringValue ?? "?") \($0["state"]?.stringValue ?? "?")" }.suffix(2) == ["P0300 new", "P0300 cleared"])

        let ha = try HomeAssistantCheck.run(sub.messages, directory: dir.path)
        #expect(ha.status == 0 && ha.validConfigs == expected && ha.invalidConfigs == 0, "\(ha.output)")
        let device = try #require(p0420?["device_id"]?.stringValue)
        let sensor = ha.entities["logbook_" + device + "_golf_fault_codes"]
        #expect(sensor?["state"]?.stringValue == "3", "HA shows \(sensor ?? .null)")
        let shown = Self.items(sensor?["attributes"]?["codes"])
        #expect(shown.compactMap { $0["code"]?.stringValue } == ["P0420", "P1234", "P0133"], "\(sensor ?? .null)")
        #expect(shown.last?["pending"]?.boolValue == true && sensor?["attributes"]?["stored"]?.doubleValue == 2)
        print("uplink-dtc: \(received.count) fault_code events, HA sensor state \(sensor?["state"]?.stringValue ?? "?")")
        #expect(uplink.process.stop() == 0, "\(uplink.process.log)")
        withExtendedLifetime(broker) {}
    }
}
