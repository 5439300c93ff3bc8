// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import LogbookTestSupport
import LogbookUplink
import Testing

/// `logbook-uplink` against a real mosquitto with TLS (a CA made by openssl) and passwords.
@Suite(.serialized) struct MQTTUplinkTests {
    @Test func aDriveArrivesInOrderOverTLSWithAPasswordAndTheStatusShowsIt() async throws {
        let dir = try TemporaryDirectory("mqtls")
        defer { dir.remove() }
        let tls = try makeTLS(in: dir.path)
        try FileManager.default.createDirectory(atPath: dir.file("broker"), withIntermediateDirectories: true)
        let broker = try Mosquitto(directory: dir.file("broker"), tls: tls, users: [("car", "s3cret")])
        let journal = try await JournalFixture.write(stateDirectory: dir.file("state"))
        try "s3cret\n".write(toFile: dir.file("mqtt-password"), atomically: true, encoding: .utf8)
        try writeUplinkConfig(dir.file("uplink.toml"), state: dir.file("uplink"), journal: journal.journalDirectory,
                              mqtt: """
                                host = "127.0.0.1"
                                port = \(broker.port)
                                ca_file = "\(tls.ca)"
                                username = "car"
                                password_file = "\(dir.file("mqtt-password"))"
                                points_per_message = 100
                                drain_points_per_s = 0
                                """)
        let sub = try Subscriber(port: broker.port, topics: ["logbook/#", "homeassistant/#"], output: dir.file("sub.txt"),
                                 extra: ["--cafile", tls.ca, "-u", "car", "-P", "s3cret"])
        defer { sub.stop() }
        let uplink = try UplinkRun.start(config: dir.file("uplink.toml"))
        let total = journal.points.count
        #expect(await eventually(.seconds(60)) { ReceivedPoints(sub.messages).counts.values.first?.count == total },
                "log: \(uplink.process.log)")
        // Status while it runs: connected, caught up (the cursor is saved once the broker has
        // acknowledged the last batch, which may be just after the subscriber saw it).
        var (code, text): (Int32, String) = (0, "")
        _ = await eventually(.seconds(10)) {
            (code, text) = (try? run(TestPaths.product("logbook"), ["uplink", "status", "--config", dir.file("uplink.toml")])) ?? (-1, "")
            return code == 0 && text.contains("lag 0 records")
        }
        #expect(code == 0 && text.contains("mqtt: cursor ") && text.contains("lag 0 records") && text.contains("connected"), "\(text)")

        let received = ReceivedPoints(sub.messages)
        let device = try #require(received.counts.keys.first)
        #expect(received.order[device] == journal.points.map(\.0), "points arrive in journal order")
        #expect(received.counts[device]?.values.allSatisfy { $0 == 1 } == true, "no broker restart here: once each on the wire too")
        for (seq, p) in journal.points {
            let v = received.values[device]?[seq]
            #expect(v?.0 == p.latitude && v?.1 == p.longitude, "seq \(seq)")
        }
        // Home Assistant: every entity's discovery payload and every state message, through
        // HA's own schemas and entity classes. The live publisher announces a vehicle on its
        // next tick (every 0.25 s) after the sink's ledger learns of it, so discovery and the
        // state may follow the last point: wait for them.
        let expected = HADiscovery.entities.count
        func vehicleState(_ messages: [(Double, String, String)]) -> JSONValue? {
            messages.last { $0.1 == "logbook/\(device)/vehicle/golf/state" }.flatMap { try? JSONValue.parse($0.2) }
        }
        _ = await eventually(.seconds(10)) {
            let m = sub.messages
            return m.filter { $0.1.hasPrefix("homeassistant/") }.count >= expected
                && vehicleState(m)?["odometer_km"]?.doubleValue ?? 0 > 12_000
                && m.contains { $0.1 == "logbook/\(device)/vehicle/golf/last_trip" }
        }
        let messages = sub.messages
        let state = vehicleState(messages)
        // The reading written as the CLI writes it (`odometer`: vehicle, at, odometer_km), plus the trip after it.
        #expect(state?["odometer_km"]?.doubleValue ?? 0 > 12_000, "odometer estimate = reading + trip")
        #expect(messages.filter { $0.1.hasPrefix("homeassistant/") }.count == expected)
        let ha = try HomeAssistantCheck.run(messages, directory: dir.path)
        #expect(ha.status == 0 && ha.validConfigs == expected && ha.invalidConfigs == 0, "\(ha.output)")
        let node = "logbook_" + device + "_golf_"
        #expect(Double(ha.state(node + "odometer_km") ?? "") ?? 0 > 12_000, "HA shows \(ha.entities[node + "odometer_km"] ?? .null)")
        #expect(ha.state(node + "last_trip_end")?.hasPrefix("20") == true, "\(ha.entities[node + "last_trip_end"] ?? .null)")
        let stopped = uplink.process.stop()
        #expect(stopped == 0, "\(uplink.process.log)")
        #expect(await eventually { sub.messages.last { $0.1.hasSuffix("/availability") }?.2 == "offline" })
        let (after, afterText) = try run(TestPaths.product("logbook"), ["uplink", "status", "--config", dir.file("uplink.toml")])
        #expect(after == 69 && afterText.contains("not running"), "\(afterText)")
        withExtendedLifetime(broker) {}
    }

    @Test func aWrongPasswordShowsAsTheLastErrorAndNothingIsAcknowledged() async throws {
        let dir = try TemporaryDirectory("mqpw")
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.file("broker"), withIntermediateDirectories: true)
        let broker = try Mosquitto(directory: dir.file("broker"), users: [("car", "right")])
        let journal = try await JournalFixture.write(stateDirectory: dir.file("state"), limit: 50)
        try "wrong".write(toFile: dir.file("pw"), atomically: true, encoding: .utf8)
        try writeUplinkConfig(dir.file("uplink.toml"), state: dir.file("uplink"), journal: journal.journalDirectory, mqtt: """
            host = "127.0.0.1"
            port = \(broker.port)
            username = "car"
            password_file = "\(dir.file("pw"))"
            """)
        let uplink = try UplinkRun.start(config: dir.file("uplink.toml"))
        var text = ""
        #expect(await eventually(.seconds(15)) {
            text = (try? run(TestPaths.product("logbook"), ["uplink", "status", "--config", dir.file("uplink.toml")]))?.1 ?? ""
            return text.contains("not authori")
        }, "\(text)\n\(uplink.process.log)")
        #expect(text.contains("cursor 0") && text.contains("not connected"), "\(text)")
        uplink.process.stop()
        #expect(!FileManager.default.fileExists(atPath: dir.file("uplink/cursor-mqtt.json")))
        withExtendedLifetime(broker) {}
    }

    @Test func badConfigurationExits78NamingTheKey() throws {
        let dir = try TemporaryDirectory("mqcfg")
        defer { dir.remove() }
        try "[uplink.mqtt]\nhots = \"broker\"\n".write(toFile: dir.file("bad.toml"), atomically: true, encoding: .utf8)
        let (code, out) = try run(TestPaths.product("logbook-uplink"), ["--config", dir.file("bad.toml")])
        #expect(code == 78 && out.contains("logbook-uplink: config error: uplink.mqtt.hots: unknown key"), "\(out)")
        try "[uplink]\n".write(toFile: dir.file("none.toml"), atomically: true, encoding: .utf8)
        let (none, noneOut) = try run(TestPaths.product("logbook-uplink"), ["--config", dir.file("none.toml")])
        #expect(none == 78 && noneOut.contains("uplink: no sink is set"), "\(noneOut)")
        let (usage, _) = try run(TestPaths.product("logbook-uplink"), ["--no-such-flag"])
        #expect(usage == 64)
    }
}
