// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import LogbookTestSupport
import LogbookUplink
import Logging
import Testing

/// Issue 11's end-to-end test: three cars (three real logbookd, each recording a different
/// real drive replayed through its own gpsd) stream into one PostgreSQL and one mosquitto
/// while the PostgreSQL uplinks are killed with SIGKILL again and again, the database is down
/// for a while and the broker is stopped mid-drive; afterwards every point of every car is
/// in both places exactly once, and the checkpoints witness a forged journal.
///
/// Real time is compressed by pacing the replays (Switzerland 120×, Munich 25×, Regensburg
/// 20×; the daemons' trip clocks run at the same pace): the broker's 15 s outage is 30 min of
/// the Swiss drive, the database's 10 s outage 20 min.
@Suite(.serialized) struct FleetTests {
    struct Car {
        let name: String
        let dir: String
        let gpsd: GPSDReplay
        let daemon: DaemonProcess
        var postgres: UplinkRun
        let mqtt: UplinkRun
        var state: String { dir + "/state" }
        var journal: String { dir + "/state/journal" }
    }

    static let drives: [(log: String, pace: Double, vehicle: String)] = [
        ("20100403_Z205_Switzerland.txt", 120, "z205"), ("munich-gps.nmea", 25, "munich"),
        ("20100411_Geko_Regensburg.txt", 20, "geko"),
    ]

    @Test(.timeLimit(.minutes(8))) func threeCarsArriveExactlyOnceThroughKillsAndOutages() async throws {
        let dir = try TemporaryDirectory("fleet")
        defer { dir.remove() }
        let pg = try PostgresCluster(directory: dir.file("pg"))
        try FileManager.default.createDirectory(atPath: dir.file("broker"), withIntermediateDirectories: true)
        let broker = try Mosquitto(directory: dir.file("broker"))
        let sub = try Subscriber(port: broker.port, topics: ["logbook/#", "homeassistant/#"], output: dir.file("sub.txt"))
        defer { sub.stop() }
        var cars: [Car] = []
        defer { for c in cars { c.postgres.process.stop(); c.mqtt.process.stop(); c.gpsd.stop() } }
        for (i, d) in Self.drives.enumerated() {
            let carDir = dir.file("car\(i)")
            try FileManager.default.createDirectory(atPath: carDir, withIntermediateDirectories: true)
            let gpsd = try GPSDReplay(log: TestPaths.gpsLog(d.log), realtime: d.pace)
            try """
                state_dir = "\(carDir)/state"
                runtime_dir = "\(carDir)/run"
                [gpsd]
                address = "\(gpsd.address)"
                [journal]
                commit_interval_s = 1
                [[vehicle]]
                id = "\(d.vehicle)"
                name = "Car \(d.vehicle)"
                [[source]]
                type = "service"
                vehicle = "\(d.vehicle)"
                """.write(toFile: carDir + "/logbookd.toml", atomically: true, encoding: .utf8)
            let daemon = try DaemonProcess(arguments: ["--config", carDir + "/logbookd.toml"],
                                           environment: ["LOGBOOKD_DEBUG_CLOCK_SCALE": String(d.pace)])
            #expect(await eventually(.seconds(20)) { FileManager.default.fileExists(atPath: carDir + "/state/journal.pub") })
            try writeUplinkConfig(carDir + "/pg.toml", state: carDir + "/uplink", journal: carDir + "/state/journal",
                                  postgres: "url = \"\(pg.url)\"\nreconnect_max_s = 2\nbatch_points = 500")
            try writeUplinkConfig(carDir + "/mqtt.toml", state: carDir + "/uplink", journal: carDir + "/state/journal",
                                  live: carDir + "/run/live.json", mqtt: """
                                    host = "127.0.0.1"
                                    port = \(broker.port)
                                    reconnect_max_s = 2
                                    points_per_message = 200
                                    live_interval_s = 1
                                    """, extra: "")
            cars.append(Car(name: d.vehicle, dir: carDir, gpsd: gpsd, daemon: daemon,
                            postgres: try UplinkRun.start(config: carDir + "/pg.toml"),
                            mqtt: try UplinkRun.start(config: carDir + "/mqtt.toml")))
        }

        // Faults while the cars drive.
        var rng = SeededRandom(seed: 11)
        let start = Date()
        var kills = 0
        var dbDown: Date?, dbUp: Date?, brokerDown: Date?, brokerUp: Date?
        func elapsed() -> Double { Date().timeIntervalSince(start) }
        while cars.contains(where: { $0.gpsd.process.isRunning }) || kills < 20 {
            try await Task.sleep(for: .milliseconds(Int.random(in: 1500...3500, using: &rng)))
            let i = Int.random(in: 0..<cars.count, using: &rng)
            kill(cars[i].postgres.process.pid, SIGKILL)
            _ = cars[i].postgres.process.wait()
            kills += 1
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...500, using: &rng)))
            cars[i].postgres = try UplinkRun.start(config: cars[i].dir + "/pg.toml")
            if dbDown == nil && elapsed() > 20 {
                pg.stop()
                dbDown = Date()
            } else if dbDown != nil && dbUp == nil && elapsed() > 32 {
                try pg.start()
                dbUp = Date()
            } else if brokerDown == nil && elapsed() > 40 {
                broker.stop()
                brokerDown = Date()
            } else if brokerDown != nil && brokerUp == nil && elapsed() > 55 {
                try broker.restart()
                brokerUp = Date()
            }
            if elapsed() > 200 { break }
        }
        #expect(brokerUp != nil && dbUp != nil, "the drives ended before the outages were over")
        print("uplink: fleet: drives took \(Int(elapsed())) s, database down \(Int(dbUp?.timeIntervalSince(dbDown ?? start) ?? 0)) s, "
              + "broker down \(Int(brokerUp?.timeIntervalSince(brokerDown ?? start) ?? 0)) s")
        // The cars park: each daemon ends its trip, signs a last checkpoint and seals.
        for c in cars { #expect(await c.daemon.stop(timeout: .seconds(20))?.0 == 0, "\(c.daemon.log)") }

        // Both sinks of every car catch up with the whole journal.
        var expected: [(car: Car, device: String, points: [(UInt64, TripPoint)], last: UInt64, checkpoints: Int)] = []
        for c in cars {
            let f = try JournalFixture(stateDirectory: c.state)
            let key = try #require(Uplink.trustedKey(stateDirectory: c.state))
            var head = JournalHeadProbe(directory: c.journal, after: .start)
            try head.advance(maxReads: 10_000)
            expected.append((c, DeviceIdentity.derivedID(publicKey: key), f.points, head.sequence,
                             try JournalReader(directory: c.journal).checkpoints().count))
        }
        for e in expected {
            for sink in ["postgres", "mqtt"] {
                let caughtUp = await eventually(.seconds(90), every: .milliseconds(250)) {
                    (try? CursorStore(directory: e.car.dir + "/uplink").load(sink: sink))??.position.sequence == e.last
                }
                #expect(caughtUp, "\(e.car.name) \(sink) did not catch up:\n\(sink == "mqtt" ? e.car.mqtt.process.log : e.car.postgres.process.log)")
            }
        }
        try await Task.sleep(for: .seconds(2))  // the subscriber's last deliveries
        for c in cars {
            #expect(c.postgres.process.stop() == 0)
            #expect(c.mqtt.process.stop() == 0)
        }

        // PostgreSQL: every point of every car once, with its values; trips and checkpoints.
        let total = expected.reduce(0) { $0 + $1.points.count }
        var pgMissing = 0, pgExtra = 0, pgWrong = 0
        for e in expected {
            let rows = try pg.psql("SELECT seq, lat, lon FROM points WHERE device_id = '\(e.device)' ORDER BY seq")
                .split(separator: "\n").map { $0.split(separator: "|").map(String.init) }
            var stored: [UInt64: (Double, Double)] = [:]
            for r in rows where r.count == 3 { stored[UInt64(r[0]) ?? 0] = (Double(r[1]) ?? .nan, Double(r[2]) ?? .nan) }
            for (seq, p) in e.points {
                guard let v = stored.removeValue(forKey: seq) else { pgMissing += 1; continue }
                if v.0 != p.latitude || v.1 != p.longitude { pgWrong += 1 }
            }
            pgExtra += stored.count
            #expect(try pg.psql("SELECT count(*), bool_and(end_seq IS NOT NULL) FROM trips WHERE device_id = '\(e.device)'") == "1|t")
            #expect(try pg.psql("SELECT count(*) FROM checkpoints WHERE device_id = '\(e.device)'") == String(e.checkpoints))
        }
        let pgDuplicates = Int(try pg.psql("SELECT count(*) - count(DISTINCT (device_id, seq)) FROM points")) ?? -1
        let carCount = Int(try pg.psql("SELECT count(*) FROM devices")) ?? 0
        print("uplink: postgres: \(carCount) cars, \(total) points, \(pgMissing) missing, \(pgDuplicates + pgExtra) duplicates, uplink kills \(kills)")
        #expect(carCount == 3 && pgMissing == 0 && pgDuplicates == 0 && pgExtra == 0 && pgWrong == 0 && kills >= 20)

        // MQTT: what the subscriber recorded, per (device_id, seq). At-least-once on the wire,
        // exactly once in effect: a QoS 1 message the broker delivered but could not acknowledge
        // before it stopped is sent again after the restart (same (device_id, seq), same
        // values) and a consumer keyed on (device_id, seq) applies it once. A duplicate in
        // effect is a second copy that differs, or a (device_id, seq) not in the journal.
        let messages = sub.messages
        let received = ReceivedPoints(messages)
        var once = 0, mqttMissing = 0, redelivered = 0
        var mqttDuplicates = received.conflicting
        for e in expected {
            let counts = received.counts[e.device] ?? [:]
            for (seq, p) in e.points {
                let n = counts[seq] ?? 0
                if n == 0 { mqttMissing += 1 } else { once += 1; redelivered += n - 1 }
                if let v = received.values[e.device]?[seq], v.0 != p.latitude || v.1 != p.longitude { mqttMissing += 1 }
            }
            let journal = Set(e.points.map(\.0))
            mqttDuplicates += counts.keys.filter { !journal.contains($0) }.count
            #expect(received.order[e.device] == e.points.map(\.0), "\(e.car.name): points in journal order (first arrivals)")
        }
        print("uplink: mqtt: \(total) points, \(once) received once, \(mqttMissing) missing, \(mqttDuplicates) duplicates, broker restarts \(broker.restarts)")
        print("uplink: mqtt: wire: \(redelivered) point copies sent again by QoS 1 across the broker restart, each identical to its first delivery")
        #expect(once == total && mqttMissing == 0 && mqttDuplicates == 0 && broker.restarts >= 1)

        // The live topic recovered after the broker came back: fresher state than before it left.
        if let down = brokerDown?.timeIntervalSince1970, let up = brokerUp?.timeIntervalSince1970 {
            for e in expected {
                let live = messages.filter { $0.1 == "logbook/\(e.device)/live" }
                let before = live.last { $0.0 < down }.flatMap { try? JSONValue.parse($0.2) }?["updated_at"]?.stringValue ?? ""
                let after = live.filter { $0.0 > up }.compactMap { try? JSONValue.parse($0.2) }
                #expect(after.contains { ($0["updated_at"]?.stringValue ?? "") > before }, "\(e.car.name): no fresh live state after the restart")
            }
        }
        // Home Assistant: every entity of every car, as the broker delivered it (at every
        // connection of its uplink), and every state message, through HA's own schemas and
        // entity classes.
        let ha = try HomeAssistantCheck.run(messages, directory: dir.path)
        #expect(ha.status == 0 && ha.invalidConfigs == 0, "\(ha.failures.prefix(20))")
        let entities = Set(messages.filter { $0.1.hasPrefix("homeassistant/") }.map(\.1)).count
        #expect(entities == 3 * HADiscovery.entities.count)
        print("uplink: ha-discovery: \(entities) entities, \(ha.validConfigs) discovery messages valid in Home Assistant \(HomeAssistantCheck.version), \(ha.failures.count) problems")

        // The witness: a journal rewritten with the stolen key verifies locally, not against
        // the checkpoints the fleet store and the MQTT collector received.
        let car = expected[0]
        let forged = dir.file("forged")
        try await forge(car.car.state, into: forged)
        let witnessFile = dir.file("witness.ndjson")
        try messages.filter { $0.1 == "logbook/\(car.device)/checkpoints" }.map(\.2).joined(separator: "\n")
            .write(toFile: witnessFile, atomically: true, encoding: .utf8)
        let logbook = TestPaths.product("logbook")
        let genuineDB = try run(logbook, ["verify", "--state-dir", car.car.state, "--witness", pg.url])
        let genuineFile = try run(logbook, ["verify", "--state-dir", car.car.state, "--witness", witnessFile])
        let forgedPlain = try run(logbook, ["verify", "--state-dir", forged])
        let forgedDB = try run(logbook, ["verify", "--state-dir", forged, "--witness", pg.url, "--device-id", car.device])
        let forgedFile = try run(logbook, ["verify", "--state-dir", forged, "--witness", witnessFile, "--device-id", car.device])
        #expect(genuineDB.0 == 0 && genuineFile.0 == 0, "\(genuineDB.1)\n\(genuineFile.1)")
        #expect(forgedPlain.0 == 0, "the forgery is signed with the device's own key: \(forgedPlain.1)")
        #expect(forgedDB.0 == 1 && forgedDB.1.contains("history rewritten"), "\(forgedDB.1)")
        #expect(forgedFile.0 == 1 && forgedFile.1.contains("PROBLEM: witness"), "\(forgedFile.1)")
        if genuineDB.0 == 0 && genuineFile.0 == 0 && forgedPlain.0 == 0 && forgedDB.0 == 1 && forgedFile.0 == 1 {
            print("uplink: witness: tampered journal detected")
        }
    }

    /// What a root attacker with the key can do: write the same history with one point moved,
    /// re-signed with the device's own key.
    func forge(_ state: String, into forged: String) async throws {
        try FileManager.default.createDirectory(atPath: forged, withIntermediateDirectories: true)
        for f in [JournalKey.privateKeyName, JournalKey.publicKeyName] {
            try FileManager.default.copyItem(atPath: state + "/" + f, toPath: forged + "/" + f)
        }
        let entries = try JournalReader(directory: state + "/journal").entries()
        var log = Logger(label: "forger")
        log.logLevel = .error
        let w = try JournalWriter.open(JournalConfiguration(directory: forged + "/journal", stateDirectory: forged), logger: log)
        var moved = false
        for e in entries {
            if case .points(let id, var pts) = e.record, !moved, pts.count > 10 {
                pts[5].latitude += 0.01  // one point, about a kilometre off
                moved = true
                _ = try w.append(.points(id, pts))
            } else {
                _ = try w.append(e.record)
            }
        }
        try await w.close()
    }
}

/// SplitMix64, so the kill schedule reproduces.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
