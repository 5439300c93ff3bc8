// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookTestSupport
import LogbookUplink
import Testing

/// The place the car arrived at (live.json's `place`) reaches Home Assistant: the vehicle's
/// retained `…/place` topic is the `device_tracker`'s state topic, so the tracker shows the
/// place's name, as it does for HA's own zones; `None` hands the state back to the position.
@Suite(.serialized) struct PlaceUplinkTests {
    /// A live document as logbookd writes it: idle, a position, and `place` when given.
    static func live(seq: Int, place: String?) -> String {
        let placeJSON = place.map { "{\"id\":\"home\",\"name\":\"\($0)\",\"since\":\"2026-11-26T18:02:00Z\",\"privacy_zone\":false}" } ?? "null"
        return """
            {"schema":1,"seq":\(seq),"updated_at":"2026-11-26T18:02:05Z","gps":{"connected":true,"mode":3,"time":"2026-11-26T18:02:05Z",\
            "lat":48.137,"lon":11.575,"speed_mps":0,"track_deg":null,"eph_m":4,"satellites_used":9,"fixes":10,"rejected":0,\
            "rejected_by_reason":{}},"in_privacy_zone":null,"place":\(placeJSON),"journal":{"status":"ok"},"power":{"status":"unavailable"},\
            "trip":null,"last_trip":null}
            """
    }

    @Test func theDeviceTrackerShowsThePlaceNameOnARealMosquitto() async throws {
        let dir = try TemporaryDirectory("mqplace")
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.file("broker"), withIntermediateDirectories: true)
        let broker = try Mosquitto(directory: dir.file("broker"))
        let journal = try await JournalFixture.write(stateDirectory: dir.file("state"))
        let liveFile = dir.file("live.json")
        try Self.live(seq: 1, place: nil).write(toFile: liveFile, atomically: true, encoding: .utf8)
        try writeUplinkConfig(dir.file("uplink.toml"), state: dir.file("uplink"), journal: journal.journalDirectory, live: liveFile,
                              mqtt: "host = \"127.0.0.1\"\nport = \(broker.port)\n")
        let sub = try Subscriber(port: broker.port, topics: ["logbook/#", "homeassistant/#"], output: dir.file("sub.txt"))
        defer { sub.stop() }
        let uplink = try UplinkRun.start(config: dir.file("uplink.toml"))
        func places() -> [String] { sub.messages.filter { $0.1.hasSuffix("/vehicle/golf/place") }.map(\.2) }
        // At no place: `None` (HA's payload_reset), so HA's zones decide from the position.
        #expect(await eventually(.seconds(30)) { places().last == MQTTTopics.noPlace }, "log: \(uplink.process.log)")
        // Arrived: logbookd's live.json names the place.
        try Self.live(seq: 2, place: "Home").write(toFile: liveFile, atomically: true, encoding: .utf8)
        #expect(await eventually(.seconds(30)) { places().last == "Home" }, "\(places())")
        let messages = sub.messages
        let device = try #require(messages.first { $0.1.hasSuffix("/vehicle/golf/place") }?.1.split(separator: "/").dropFirst().first.map(String.init))
        let trackerConfig = try #require(messages.last { $0.1.hasPrefix("homeassistant/device_tracker/") && $0.1.contains("golf_location") })
        #expect((try? JSONValue.parse(trackerConfig.2))?["state_topic"]?.stringValue == "logbook/\(device)/vehicle/golf/place")
        // Home Assistant's own MqttDeviceTracker, fed every message in order: it shows the name.
        let ha = try HomeAssistantCheck.run(messages, directory: dir.path)
        #expect(ha.status == 0 && ha.invalidConfigs == 0, "\(ha.output)")
        let tracker = "logbook_" + device + "_golf_location"
        #expect(ha.state(tracker) == "Home", "HA shows \(ha.entities[tracker] ?? .null)")
        print("place-events: home-assistant: device_tracker state \(ha.state(tracker) ?? "nil") after \(places().count) place messages")
        #expect(uplink.process.stop() == 0, "\(uplink.process.log)")
        withExtendedLifetime(broker) {}
    }
}
