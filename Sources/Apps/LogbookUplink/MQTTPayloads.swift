// SPDX-License-Identifier: MIT
public import LogbookCore
public import LogbookJournal
import LogbookRecords
internal import LogbookPOSIX

/// One message to publish.
public struct MQTTMessage: Sendable, Equatable {
    public var topic: String
    public var payload: String
    public var retain: Bool

    public init(topic: String, payload: String, retain: Bool = false) {
        self.topic = topic
        self.payload = payload
        self.retain = retain
    }
}

/// Turns journal items into the messages of the `points`, `events` and `checkpoints` topics.
/// Every message names `device_id` and the sequence number(s) it carries, so a consumer can
/// drop what it has already seen (at-least-once on the wire, exactly-once in effect).
public struct MQTTPayloads: Sendable {
    public let topics: MQTTTopics
    /// Points per `points` message.
    public let pointsPerMessage: Int

    public init(topics: MQTTTopics, pointsPerMessage: Int = 500) {
        self.topics = topics
        self.pointsPerMessage = max(1, pointsPerMessage)
    }

    /// The messages for `items`, in journal order. Consecutive point records of a trip (the
    /// daemon commits a few points every 5 s) are joined into messages of up to
    /// ``pointsPerMessage`` points, so a backlog travels in few, full messages.
    ///
    /// - Parameter describe: called for every record but points, in order; a value it returns
    ///   is published instead of ``event(_:)`` (the sink's trip correction events).
    public func messages(for items: [JournalItem], describe: (JournalEntry) -> JSONValue? = { _ in nil }) -> [MQTTMessage] {
        var out: [MQTTMessage] = []
        var run: (trip: TripID, first: UInt64, points: [TripPoint])?
        // Checkpoints do not break runs of points: they follow at the end of the batch (their
        // order relative to points does not matter to anyone; the witness keys on seq).
        var checkpoints: [MQTTMessage] = []
        func flush() {
            if let r = run {
                out.append(MQTTMessage(topic: topics.points, payload: pointBatch(
                    trip: r.trip, firstSequence: r.first, points: r.points[...])))
            }
            run = nil
        }
        for item in items {
            if case .entry(let e) = item, case .points(let trip, let points) = e.record {
                var seq = e.sequence
                for p in points {
                    if let r = run, r.trip != trip || r.first + UInt64(r.points.count) != seq || r.points.count >= pointsPerMessage {
                        flush()
                    }
                    if run == nil { run = (trip, seq, []) }
                    run?.points.append(p)
                    seq += 1
                }
                continue
            }
            if case .checkpoint(let cp) = item {
                checkpoints.append(MQTTMessage(topic: topics.checkpoints, payload: checkpoint(cp).serialized))
                continue
            }
            flush()
            switch item {
            case .entry(let e):
                out.append(MQTTMessage(topic: topics.events, payload: (describe(e) ?? event(e)).serialized))
            case .checkpoint:
                break
            case .rewound(let from, let to):
                out.append(MQTTMessage(topic: topics.events, payload: JSONValue.object([
                    ("device_id", .string(topics.device)), ("seq", .number(Double(to))), ("type", .string("rewound")),
                    ("from_seq", .number(Double(from))), ("to_seq", .number(Double(to))),
                ]).serialized))
            }
        }
        flush()
        return out + checkpoints
    }

    /// `{"device_id","trip","seq","t0","points":[[dt_ms,lat,lon,speed,track,alt,eph],…]}`: point
    /// `i` has sequence `seq + i` and GPS time `t0 + dt_ms` (ms since the epoch); SI units,
    /// `null` for what the fix did not have. Written by hand: this is the bulk of the traffic.
    public func pointBatch(trip: TripID, firstSequence: UInt64, points: ArraySlice<TripPoint>) -> String {
        var s = "{\"device_id\":"
        s += quoted(topics.device)
        s += ",\"trip\":\(trip.rawValue),\"seq\":\(firstSequence)"
        let t0 = (points.first?.time.nanoseconds ?? 0) / 1_000_000
        s += ",\"t0\":\(t0),\"points\":["
        for (i, p) in points.enumerated() {
            if i > 0 { s += "," }
            s += "[\(p.time.nanoseconds / 1_000_000 - t0),"
            s += Self.number(p.latitude) + "," + Self.number(p.longitude) + ","
            s += Self.number(p.speed) + "," + Self.number(p.track) + ","
            s += Self.number(p.altitude) + "," + Self.number(p.eph) + "]"
        }
        s += "]}"
        return s
    }

    /// A trip boundary, signal or entry.
    public func event(_ e: JournalEntry) -> JSONValue {
        var m: [(String, JSONValue)] = [("device_id", .string(topics.device)), ("seq", .number(Double(e.sequence)))]
        switch e.record {
        case .tripStarted(let s):
            m += [("type", .string("trip_started")), ("trip", .number(Double(s.id.rawValue))),
                  ("vehicle", .string(s.vehicleID)), ("reason", .string(s.reason)), ("time", time(s.gpsTime))]
        case .tripEnded(let t):
            m += [("type", .string("trip_ended")), ("trip", .number(Double(t.id.rawValue))), ("reason", .string(t.reason)),
                  ("time", time(t.gpsTime)), ("distance_m", .number(t.summary.distance)),
                  ("duration_s", .number(t.summary.duration)), ("max_speed_mps", .number(t.summary.maxSpeed)),
                  ("avg_speed_mps", .number(t.summary.averageSpeed)), ("points", .number(Double(t.summary.pointCount))),
                  ("discarded", .bool(t.discarded))]
        case .tripReopened(let t):
            m += [("type", .string("trip_reopened")), ("trip", .number(Double(t.id.rawValue))),
                  ("vehicle", .string(t.vehicleID)), ("previous_end_reason", .string(t.previousEndReason)),
                  ("gap_from", time(t.from)), ("time", time(t.gpsTime))]
        case .signal(let s):
            if let fault = FaultCodeSignal(source: s.source) {
                // A trouble code appearing or cleared (the OBD source): said as such, with its description.
                m += [("type", .string("fault_code")), ("code", .string(fault.code.description)),
                      ("state", .string(s.on ? "new" : "cleared")), ("pending", .bool(fault.pending)),
                      ("description", .string(fault.genericDescription)), ("source", .string(s.source)),
                      ("vehicle", .string(s.vehicleID)), ("on", .bool(s.on)), ("time", time(s.gpsTime))]
            } else {
                m += [("type", .string("signal")), ("source", .string(s.source)), ("vehicle", .string(s.vehicleID)),
                      ("on", .bool(s.on)), ("time", time(s.gpsTime))]
            }
        case .entry(let u):
            m += [("type", .string("entry")), ("entry_type", .string(u.type)), ("action", .string(Self.action(u.action))),
                  ("subject", .string(u.subject)), ("fields", u.fields), ("origin", .string(u.origin)),
                  ("recorded_at", time(u.recordedAt.map { GPSTime(nanoseconds: $0) }))]
        case .points:
            break
        }
        return .object(m)
    }

    /// A signed checkpoint, hex-encoded (the format `logbook verify --witness FILE` reads).
    public func checkpoint(_ cp: JournalCheckpoint) -> JSONValue {
        Self.checkpointJSON(cp, device: topics.device)
    }

    /// The witness line of a checkpoint.
    public static func checkpointJSON(_ cp: JournalCheckpoint, device: String) -> JSONValue {
        .object([
            ("device_id", .string(device)), ("seq", .number(Double(cp.sequence))), ("head", .string(Hex.encode(cp.head))),
            ("gps_time", .string(cp.gpsTime.map(ISO8601.format))),
            ("gps_time_ns", .string(cp.gpsTime.map { String($0.nanoseconds) })),
            ("monotonic_ns", .string(String(cp.monotonicNanoseconds))),
            ("signature", .string(Hex.encode(cp.signature))), ("public_key", .string(Hex.encode(cp.publicKey))),
        ])
    }

    /// Parses a witness line back; nil when it is not one.
    public static func checkpoint(fromJSON j: JSONValue) -> (device: String, checkpoint: JournalCheckpoint)? {
        guard let device = j["device_id"]?.stringValue, let seq = j["seq"]?.doubleValue, seq >= 0,
            let head = j["head"]?.stringValue.flatMap(Hex.decode), let sig = j["signature"]?.stringValue.flatMap(Hex.decode),
            let key = j["public_key"]?.stringValue.flatMap(Hex.decode),
            let mono = j["monotonic_ns"]?.stringValue.flatMap({ UInt64($0) })
        else { return nil }
        let gps = j["gps_time_ns"]?.stringValue.flatMap { Int64($0) }.map { GPSTime(nanoseconds: $0) }
        return (device, JournalCheckpoint(sequence: UInt64(seq), head: head, gpsTime: gps, monotonicNanoseconds: mono,
                                          signature: sig, publicKey: key))
    }

    static func action(_ a: UserEntry.Action) -> String {
        switch a {
        case .add: "add"
        case .amend: "amend"
        case .void: "void"
        }
    }

    private func time(_ t: GPSTime?) -> JSONValue { .string(t.map(ISO8601.format)) }

    private func quoted(_ s: String) -> String { JSONValue.string(s).serialized }

    /// Shortest round-trip form; integers without a fraction; `null` for nil or non-finite.
    static func number(_ v: Double?) -> String {
        guard let v, v.isFinite else { return "null" }
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return String(v)
    }
}
