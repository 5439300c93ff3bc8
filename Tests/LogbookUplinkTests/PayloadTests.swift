// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookJournal
import LogbookUplink
import Testing

@Suite struct PayloadTests {
    let payloads = MQTTPayloads(topics: MQTTTopics(prefix: "logbook", device: "lb-x"), pointsPerMessage: 3)

    func point(_ i: Int) -> TripPoint {
        TripPoint(time: GPSTime(seconds: 1_900_000_000 + Int64(i)), latitude: 47.2919483 + Double(i) * 1e-5,
                  longitude: 7.7429117, speed: i == 2 ? nil : 27.05, track: 242.5, altitude: 512.3, eph: 17.1)
    }

    @Test func pointBatchesCarryDeviceSequenceAndEveryFieldAndSplit() throws {
        let items: [JournalItem] = [.entry(JournalEntry(sequence: 10, record: .points(TripID(4), (0..<7).map(point))))]
        let messages = payloads.messages(for: items)
        #expect(messages.count == 3)  // 3 + 3 + 1
        var seqs: [Int] = []
        for m in messages {
            #expect(m.topic == "logbook/lb-x/points" && !m.retain)
            let j = try JSONValue.parse(m.payload)
            #expect(j["device_id"]?.stringValue == "lb-x" && j["trip"]?.doubleValue == 4)
            let seq = try #require(j["seq"]?.doubleValue), t0 = try #require(j["t0"]?.doubleValue)
            guard case .array(let pts)? = j["points"] else { Issue.record("no points"); continue }
            for (i, p) in pts.enumerated() {
                guard case .array(let f) = p, f.count == 7 else { Issue.record("bad point \(p)"); continue }
                let n = Int(seq) + i - 10
                seqs.append(Int(seq) + i)
                let want = point(n)
                #expect(t0 + (f[0].doubleValue ?? -1) == Double(want.time.nanoseconds / 1_000_000))
                #expect(f[1].doubleValue == want.latitude && f[2].doubleValue == want.longitude)
                #expect(f[3].doubleValue == want.speed)
                #expect(n != 2 || f[3].isNull)
                #expect(f[4].doubleValue == 242.5 && f[5].doubleValue == 512.3 && f[6].doubleValue == 17.1)
            }
        }
        #expect(seqs == Array(10...16))
    }

    @Test func consecutiveRecordsOfATripShareMessagesAndEventsKeepTheirPlace() throws {
        let p = MQTTPayloads(topics: MQTTTopics(prefix: "logbook", device: "lb-x"), pointsPerMessage: 12)
        let cp = JournalCheckpoint(sequence: 11, head: [1], gpsTime: nil, monotonicNanoseconds: 1, signature: [2], publicKey: [3])
        let items: [JournalItem] = [
            .entry(JournalEntry(sequence: 1, record: .tripStarted(TripStarted(id: TripID(4), reason: "manual", monotonicNanoseconds: 1, bootID: "b")))),
            .entry(JournalEntry(sequence: 2, record: .points(TripID(4), (0..<5).map(point)))),
            .entry(JournalEntry(sequence: 7, record: .points(TripID(4), (5..<10).map(point)))),
            .checkpoint(cp),
            .entry(JournalEntry(sequence: 12, record: .points(TripID(4), (10..<15).map(point)))),
            .entry(JournalEntry(sequence: 17, record: .tripEnded(TripEnded(id: TripID(4), reason: "manual", summary: .zero)))),
        ]
        let m = p.messages(for: items)
        #expect(m.map { $0.topic.split(separator: "/").last! } == ["events", "points", "points", "events", "checkpoints"])
        let first = try JSONValue.parse(m[1].payload), second = try JSONValue.parse(m[2].payload)
        #expect(first["seq"]?.doubleValue == 2 && second["seq"]?.doubleValue == 14)
        if case .array(let a)? = first["points"], case .array(let b)? = second["points"] {
            #expect(a.count == 12 && b.count == 3)
        } else {
            Issue.record("no points arrays")
        }
    }

    @Test func eventsAndCheckpointsRoundTrip() throws {
        let ended = JournalEntry(sequence: 99, record: .tripEnded(TripEnded(
            id: TripID(4), reason: "power:ignition", gpsTime: GPSTime(seconds: 1_900_000_100),
            summary: TripSummary(distance: 1234.5, duration: 600, maxSpeed: 30, averageSpeed: 2.05, pointCount: 600))))
        let e = payloads.event(ended)
        #expect(e["type"]?.stringValue == "trip_ended" && e["seq"]?.doubleValue == 99 && e["distance_m"]?.doubleValue == 1234.5)
        #expect(e["time"]?.stringValue == ISO8601.format(GPSTime(seconds: 1_900_000_100)))
        let cp = JournalCheckpoint(sequence: 99, head: Array(repeating: 7, count: 32), gpsTime: GPSTime(seconds: 5),
                                   monotonicNanoseconds: 18_446_744_073_709_551_000, signature: Array(repeating: 9, count: 64),
                                   publicKey: Array(repeating: 1, count: 32))
        let back = try #require(MQTTPayloads.checkpoint(fromJSON: try JSONValue.parse(payloads.checkpoint(cp).serialized)))
        #expect(back.device == "lb-x" && back.checkpoint == cp)
        let rewound = payloads.messages(for: [.rewound(from: 50, to: 40)])
        #expect(rewound.first?.topic == "logbook/lb-x/events" && rewound.first?.payload.contains("\"to_seq\":40") == true)
    }

    @Test func topicSegmentsAreSafe() {
        #expect(MQTTTopics.segment("VW Golf/2") == "VW_Golf_2")
        #expect(MQTTTopics(prefix: "a/b", device: "d").vehicleState("x y") == "a/b/d/vehicle/x_y/state")
        #expect(DeviceIdentity.isValid("golf-pi_2") && !DeviceIdentity.isValid("Golf") && !DeviceIdentity.isValid(""))
        #expect(DeviceIdentity.derivedID(publicKey: Array(repeating: 0, count: 32)).hasPrefix("lb-"))
        #expect(DeviceIdentity.derivedID(publicKey: Array(repeating: 0, count: 32)).count == 15)
    }
}
