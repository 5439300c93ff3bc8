// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import LogbookTestSupport
import LogbookUplink
import Testing

/// The OwnTracks, Overland and OsmAnd sinks against receivers on loopback while a real
/// logbookd records a real drive (Munich, replayed by gpsd at 20×): the three HTTP receivers
/// are stopped for a minute mid-drive; OwnTracks also goes over MQTT through mosquitto.
@Suite(.serialized) struct InteropTests {
    static func ownTracksKey(_ e: JSONValue) -> String? {
        guard let m = e["message"], let t = m["tst"]?.doubleValue, let lat = m["lat"]?.doubleValue else { return nil }
        return "\(Int(t)) \(String(format: "%.6f", lat))"
    }

    @Test func aDriveReachesEveryReceiverAcrossAMinuteOfOutage() async throws {
        let dir = try TemporaryDirectory("interop")
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.file("broker"), withIntermediateDirectories: true)
        let broker = try Mosquitto(directory: dir.file("broker"))
        let sub = try Subscriber(port: broker.port, topics: ["owntracks/#"], output: dir.file("owntracks-mqtt.txt"))
        defer { sub.stop() }
        let recorder = try InteropReceiver("owntracks", log: dir.file("owntracks.ndjson"))
        let overland = try InteropReceiver("overland", log: dir.file("overland.ndjson"))
        let osmand = try InteropReceiver("osmand", log: dir.file("osmand.ndjson"))

        let pace = 20.0
        let gpsd = try GPSDReplay(log: TestPaths.gpsLog("munich-gps.nmea"), realtime: pace)
        defer { gpsd.stop() }
        try """
            state_dir = "\(dir.path)/state"
            runtime_dir = "\(dir.path)/run"
            [gpsd]
            address = "\(gpsd.address)"
            [journal]
            commit_interval_s = 1
            [[vehicle]]
            id = "golf"
            name = "Golf"
            [[source]]
            type = "service"
            vehicle = "golf"
            """.write(toFile: dir.file("logbookd.toml"), atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(arguments: ["--config", dir.file("logbookd.toml")],
                                       environment: ["LOGBOOKD_DEBUG_CLOCK_SCALE": String(pace)])
        #expect(await eventually(.seconds(20)) { FileManager.default.fileExists(atPath: dir.file("state/journal.pub")) })
        let journal = dir.file("state/journal")
        try writeUplinkConfig(dir.file("http.toml"), state: dir.file("uplink-http"), journal: journal, extra: """
            [uplink.owntracks]
            url = "http://127.0.0.1:\(recorder.port)/pub"
            user = "car"
            device = "golf"
            reconnect_max_s = 2
            [uplink.overland]
            url = "http://127.0.0.1:\(overland.port)/api/v1/overland/batches?api_key=test"
            batch_points = 50
            reconnect_max_s = 2
            [uplink.osmand]
            url = "http://127.0.0.1:\(osmand.port)/"
            id = "golf-4711"
            reconnect_max_s = 2

            """)
        try writeUplinkConfig(dir.file("mqtt.toml"), state: dir.file("uplink-mqtt"), journal: journal,
                              mqtt: "host = \"127.0.0.1\"\nport = \(broker.port)\nreconnect_max_s = 2\ndiscovery = false",
                              extra: "[uplink.owntracks]\ntransport = \"mqtt\"\nuser = \"car\"\ndevice = \"golf\"\n")
        let httpUplink = try UplinkRun.start(config: dir.file("http.toml"))
        let mqttUplink = try UplinkRun.start(config: dir.file("mqtt.toml"))
        defer {
            _ = httpUplink.process.stop()
            _ = mqttUplink.process.stop()
        }

        // Mid-drive: once the receivers hold something, they go away for a minute.
        #expect(await eventually(.seconds(60)) { osmand.entries.count > 20 && overland.entries.count > 20 && recorder.entries.count > 20 })
        recorder.stop()
        overland.stop()
        osmand.stop()
        let down = Date()
        try await Task.sleep(for: .seconds(60))
        let outage = Date().timeIntervalSince(down)
        try recorder.start()
        try overland.start()
        try osmand.start()
        await gpsd.waitUntilFinished(timeout: .seconds(180))
        _ = await daemon.stop()

        // Every point the journal holds, in order.
        var points: [(UInt64, TripPoint)] = []
        var tripEnds = 0
        try JournalReader(directory: journal).forEach { e in
            if case .points(_, let p) = e.record { points += p.enumerated().map { (e.sequence + UInt64($0.offset), $0.element) } }
            if case .tripEnded = e.record { tripEnds += 1 }
            return true
        }
        #expect(points.count > 1_000)
        let otKeys = points.map { "\($0.1.time.wholeSeconds) \(String(format: "%.6f", $0.1.latitude))" }
        let olKeys = points.map { ISO8601.format($0.1.time) }
        let osKeys = points.map { String($0.1.time.wholeSeconds) }
        let caughtUp = await eventually(.seconds(120)) {
            recorder.entries.filter { $0["stored"]?.boolValue == true }.count >= points.count
                && overland.entries.filter { $0["stored"]?.boolValue == true }.count >= points.count
                && osmand.entries.filter { $0["stored"]?.boolValue == true }.count >= points.count + tripEnds
                && sub.messages.count >= points.count
        }
        #expect(caughtUp, "http uplink: \(httpUplink.process.log.suffix(2000))")

        // OwnTracks: the Recorder (HTTP, appends) and the MQTT subscriber; each message checked
        // against the OwnTracks JSON schema (the receiver checks HTTP ones as they come).
        let http = InteropTally(entries: recorder.entries, expected: otKeys, key: Self.ownTracksKey)
        let mqttMessages = sub.messages.map { $0.2 }
        let mqttValid = try Self.validOwnTracks(mqttMessages, dir: dir)
        var mqttSeen: [String: Int] = [:]
        for m in mqttMessages {
            if let j = try? JSONValue.parse(m), let k = Self.ownTracksKey(.object([("message", j)])) { mqttSeen[k, default: 0] += 1 }
        }
        let bothReceived = otKeys.filter { mqttSeen[$0] != nil }.count
        let messages = http.messages + mqttMessages.count
        let valid = http.valid + mqttValid
        let received = min(http.received, bothReceived)
        print("interop: owntracks: \(messages) messages, \(valid) valid, \(received) received, \(points.count - received) missing")
        #expect(valid == messages)
        #expect(http.missing == 0 && bothReceived == points.count)
        #expect(http.duplicates == 0, "the Recorder appends: the sent mark must keep resends away")
        #expect(http.inOrder)

        // Overland: batches, de-duplicated like Dawarich.
        let ol = InteropTally(entries: overland.entries, expected: olKeys) { $0["key"]?.arrayFirstString }
        let batches = overland.entries.filter { $0["stored"]?.boolValue == true }.reduce(into: 0) { n, e in
            if e["batch"] != nil { n += 1 }
        }
        let posts = Self.batchCount(overland.entries)
        print("interop: overland: \(points.count) points in \(posts) batches, \(ol.received) received, \(ol.missing) missing")
        #expect(ol.missing == 0 && ol.duplicates == 0 && ol.inOrder)
        #expect(posts < points.count / 10, "batched: \(posts) requests for \(batches) stored locations")

        // OsmAnd: every query string parsed field by field by the receiver (an unknown or
        // malformed field is refused with 422 and would be missing here).
        let os = InteropTally(entries: osmand.entries, expected: osKeys) { e in
            guard e["fields"]?["ignition"]?.boolValue == true, let t = e["fields"]?["timestamp"]?.doubleValue else { return nil }
            return String(Int(t))
        }
        print("interop: osmand: \(points.count) points, \(os.received) received, \(os.missing) missing")
        #expect(os.missing == 0 && os.duplicates == 0 && os.inOrder)
        #expect(osmand.entries.filter { $0["fields"]?["ignition"]?.boolValue == false }.count == tripEnds, "ignition off at each trip end")
        #expect(osmand.entries.allSatisfy { $0["invalid"] == nil }, "every query string parsed")
        if let first = osmand.entries.first(where: { $0["fields"] != nil })?["fields"] {
            #expect(first["id"]?.stringValue == "golf-4711")
            #expect(first["speed"] != nil && first["accuracy"] != nil)
        }
        #expect(outage >= 60)
        withExtendedLifetime((broker, gpsd)) {}
    }

    /// Overland requests: consecutive entries logged from one POST share its `batch` size.
    static func batchCount(_ entries: [JSONValue]) -> Int {
        var n = 0
        var left = 0
        for e in entries {
            guard let size = e["batch"]?.doubleValue else { continue }
            if left == 0 {
                n += 1
                left = Int(size)
            }
            left -= 1
        }
        return n
    }

    /// How many of `messages` pass the OwnTracks schema (python3-jsonschema, Draft 2020-12).
    static func validOwnTracks(_ messages: [String], dir: TemporaryDirectory) throws -> Int {
        let file = dir.file("mqtt-messages.ndjson")
        try (messages.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let script = """
            import json, sys, jsonschema
            v = jsonschema.Draft202012Validator(json.load(open(sys.argv[1] + "/message.json")))
            print(sum(1 for l in open(sys.argv[2]) if l.strip() and v.is_valid(json.loads(l))))
            """
        let (code, out) = try run("/usr/bin/python3", ["-c", script, InteropReceiver.schemaDirectory, file])
        guard code == 0, let n = Int(out.trimmingCharacters(in: .whitespacesAndNewlines)) else { throw ServerError.failed("jsonschema: \(out)") }
        return n
    }

    @Test func aMessageRefusedWith4xxIsParkedAndTheRestArrives() async throws {
        let dir = try TemporaryDirectory("park")
        defer { dir.remove() }
        let journal = try await JournalFixture.write(stateDirectory: dir.file("state"), limit: 60)
        let osmand = try InteropReceiver("osmand", log: dir.file("osmand.ndjson"), extra: ["--reject-nth", "5"])
        try writeUplinkConfig(dir.file("u.toml"), state: dir.file("uplink"), journal: journal.journalDirectory,
                              extra: "[uplink.osmand]\nurl = \"http://127.0.0.1:\(osmand.port)\"\n")
        let uplink = try UplinkRun.start(config: dir.file("u.toml"))
        defer { _ = uplink.process.stop() }
        let stored = { osmand.entries.filter { $0["stored"]?.boolValue == true }.count }
        #expect(await eventually(.seconds(30)) { stored() == journal.points.count }, "\(uplink.process.log)")
        let parked = (try? String(contentsOfFile: dir.file("uplink/parked-osmand.ndjson"), encoding: .utf8)) ?? ""
        #expect(parked.split(separator: "\n").count == 1 && parked.contains("\"status\":400"), "\(parked)")
        #expect(osmand.entries.filter { $0["rejected"] != nil }.count == 1, "refused once, never retried")
        #expect(uplink.process.log.contains("parked"))
    }

    @Test func configurationErrorsNameTheKey() throws {
        let dir = try TemporaryDirectory("icfg")
        defer { dir.remove() }
        let cases: [(String, String)] = [
            ("[uplink.osmand]\nurl = \"https://traccar.example:5055\"\n", "uplink.osmand.url"),
            ("[uplink.owntracks]\ntransport = \"mqtt\"\n", "uplink.owntracks.transport"),
            ("[uplink.owntracks]\ntransport = \"http\"\n", "uplink.owntracks.url"),
            ("[uplink.overland]\ntoken = \"x\"\n", "uplink.overland.url"),
            ("[uplink.overland]\nurl = \"http://h/\"\nbatch_points = 0\n", "uplink.overland.batch_points"),
            ("[uplink.owntracks]\nurl = \"http://h/pub\"\ntid = \"abc\"\n", "uplink.owntracks.tid"),
        ]
        for (body, key) in cases {
            try writeUplinkConfig(dir.file("u.toml"), state: dir.file("uplink"), journal: dir.file("journal"), extra: body)
            let (code, text) = try run(TestPaths.product("logbook-uplink"), ["--config", dir.file("u.toml")])
            #expect(code == 78 && text.contains("config error: \(key)"), "\(key): \(code) \(text)")
        }
    }
}

extension JSONValue {
    var arrayFirstString: String? {
        if case .array(let a) = self { return a.first?.stringValue }
        return nil
    }
}
