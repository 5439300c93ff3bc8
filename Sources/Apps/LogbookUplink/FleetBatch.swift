// SPDX-License-Identifier: MIT
import LogbookCore
public import LogbookJournal
internal import LogbookPOSIX

/// One statement with its text parameters, or a `COPY … FROM STDIN` with its rows.
public struct SQLStatement: Sendable, Equatable {
    public var sql: String
    public var parameters: [String?]
    /// For a `COPY`: its data (the points' rows in COPY's binary format).
    public var copyData: [UInt8]?

    public init(sql: String, parameters: [String?], copyData: [UInt8]? = nil) {
        self.sql = sql
        self.parameters = parameters
        self.copyData = copyData
    }
}

/// Turns a batch of journal items into idempotent statements for the fleet store: points
/// `COPY`ed into the session's staging table, then moved with one `INSERT … SELECT …
/// ON CONFLICT DO NOTHING` (exactly once however often a batch is sent), trips upserted,
/// events and checkpoints inserted once. Replaying a batch changes nothing.
public enum FleetBatch {
    /// The staging table (a temporary table of the session, emptied at each commit).
    public static let createStage = """
        CREATE TEMP TABLE IF NOT EXISTS points_stage (d text, s bigint, tr bigint, t timestamptz, la float8, lo float8, sp real, tk real,
            al real, ep real) ON COMMIT DELETE ROWS
        """

    /// The statements for `items`. `direct`: every point's sequence is above the device's
    /// highest stored one (the sink checked, under the device's lock), so no row can conflict
    /// and the points are COPYed straight into `points` — a backlog drains at COPY's speed.
    /// Otherwise (a batch sent again) through the staging table and `ON CONFLICT DO NOTHING`.
    public static func statements(for items: [JournalItem], device: String, direct: Bool = false) -> [SQLStatement] {
        var out: [SQLStatement] = []
        var points = PointColumns(device: device)
        var lastSequence: UInt64?
        // Points gather into one COPY per batch; only a rewind needs them written before it.
        func flushPoints(clear: Bool = false) {
            if !points.isEmpty { out += points.statements(device: device, clear: clear, direct: direct) }
            points = PointColumns(device: device)
        }
        for item in items {
            switch item {
            case .entry(let e):
                switch e.record {
                case .points(let trip, let ps):
                    for (i, p) in ps.enumerated() { points.append(e.sequence + UInt64(i), trip: trip, p) }
                    lastSequence = e.sequence + UInt64(max(ps.count, 1)) - 1
                    continue
                case .tripStarted(let s):
                    out.append(SQLStatement(sql: """
                        INSERT INTO trips (device_id, trip_id, vehicle_id, start_seq, start_reason, started_at)
                        VALUES ($1, $2, $3, $4, $5, \(timestamp("$6")))
                        ON CONFLICT (device_id, trip_id) DO NOTHING
                        """, parameters: [device, String(s.id.rawValue), s.vehicleID, String(e.sequence), s.reason, ns(s.gpsTime)]))
                case .tripEnded(let t):
                    out.append(SQLStatement(sql: """
                        INSERT INTO trips (device_id, trip_id, start_seq, start_reason, end_seq, end_reason, ended_at,
                            distance_m, duration_s, max_speed_mps, avg_speed_mps, point_count, discarded)
                        VALUES ($1, $2, $3, '', $3, $4, \(timestamp("$5")), $6, $7, $8, $9, $10, $11)
                        ON CONFLICT (device_id, trip_id) DO UPDATE SET end_seq = EXCLUDED.end_seq,
                            started_at = coalesce(trips.started_at, EXCLUDED.ended_at - EXCLUDED.duration_s * interval '1 second'),
                            end_reason = EXCLUDED.end_reason, ended_at = EXCLUDED.ended_at, distance_m = EXCLUDED.distance_m,
                            duration_s = EXCLUDED.duration_s, max_speed_mps = EXCLUDED.max_speed_mps,
                            avg_speed_mps = EXCLUDED.avg_speed_mps, point_count = EXCLUDED.point_count,
                            discarded = EXCLUDED.discarded
                        """, parameters: [device, String(t.id.rawValue), String(e.sequence), t.reason, ns(t.gpsTime),
                                          number(t.summary.distance), number(t.summary.duration), number(t.summary.maxSpeed),
                                          number(t.summary.averageSpeed), String(t.summary.pointCount), t.discarded ? "true" : "false"]))
                case .tripReopened(let t):
                    // Open again until its next end (a replayed batch: a later end stays).
                    out.append(SQLStatement(sql: """
                        UPDATE trips SET end_seq = NULL, end_reason = NULL, ended_at = NULL, discarded = NULL
                        WHERE device_id = $1 AND trip_id = $2 AND end_seq IS NOT NULL AND end_seq < $3
                        """, parameters: [device, String(t.id.rawValue), String(e.sequence)]))
                    fallthrough
                case .signal, .entry:
                    let body = MQTTPayloads(topics: MQTTTopics(prefix: "", device: device)).event(e)
                    let kind = body["type"]?.stringValue ?? "event"
                    out.append(SQLStatement(sql: """
                        INSERT INTO events (device_id, seq, kind, time, body) VALUES ($1, $2, $3, \(timestamp("$4")), $5::jsonb)
                        ON CONFLICT (device_id, seq) DO NOTHING
                        """, parameters: [device, String(e.sequence), kind, ns(eventTime(e.record)), body.serialized]))
                }
                lastSequence = e.sequence
            case .checkpoint(let cp):
                out.append(SQLStatement(sql: """
                    INSERT INTO checkpoints (device_id, seq, head, gps_time, gps_time_ns, monotonic_ns, signature, public_key)
                    VALUES ($1, $2, $3::bytea, \(timestamp("$4")), $4, $5, $6::bytea, $7::bytea)
                    ON CONFLICT (device_id, seq, head) DO NOTHING
                    """, parameters: [device, String(cp.sequence), "\\x" + Hex.encode(cp.head), ns(cp.gpsTime),
                                      String(cp.monotonicNanoseconds), "\\x" + Hex.encode(cp.signature),
                                      "\\x" + Hex.encode(cp.publicKey)]))
            case .rewound(_, let to):
                // What followed `to` is gone from the journal: drop it, the replacements follow.
                flushPoints(clear: true)
                for table in ["points", "events", "checkpoints"] {
                    out.append(SQLStatement(sql: "DELETE FROM \(table) WHERE device_id = $1 AND seq > $2",
                                            parameters: [device, String(to)]))
                }
                out.append(SQLStatement(sql: "DELETE FROM trips WHERE device_id = $1 AND start_seq > $2",
                                        parameters: [device, String(to)]))
                lastSequence = to
                continue
            }
        }
        flushPoints()
        if let last = lastSequence {
            out.append(SQLStatement(sql: "UPDATE devices SET last_seq = $2, last_seen = now() WHERE device_id = $1",
                                    parameters: [device, String(last)]))
        }
        return out
    }

    /// `to_timestamp(ns / 1e9)` of a bigint-ns text parameter (NULL stays NULL).
    static func timestamp(_ parameter: String) -> String { "to_timestamp(\(parameter)::bigint / 1e9)" }

    static func ns(_ t: GPSTime?) -> String? { t.map { String($0.nanoseconds) } }

    static func number(_ v: Double?) -> String? {
        guard let v, v.isFinite else { return nil }
        return String(v)
    }

    static func eventTime(_ r: JournalRecord) -> GPSTime? {
        switch r {
        case .signal(let s): s.gpsTime
        case .entry(let u): u.recordedAt.map { GPSTime(nanoseconds: $0) }
        case .tripReopened(let t): t.gpsTime
        default: nil
        }
    }
}
