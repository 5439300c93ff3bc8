// SPDX-License-Identifier: MIT
public import LogbookCore

/// What a running sink reports for `logbook uplink status`: `<runtime_dir>/status-<sink>.json`,
/// replaced every few seconds (on tmpfs: no fsync, no SD-card wear).
public struct UplinkStatus: Sendable, Equatable {
    public var sink: String
    public var deviceID: String
    public var pid: Int32
    /// Wall clock of this report, ns.
    public var updatedAt: Int64
    /// `connecting`, `delivering`, `idle` or `stopped`.
    public var state: String
    public var connected: Bool
    /// Last acknowledged sequence number.
    public var cursor: UInt64
    /// Newest sequence number in the journal.
    public var journalSequence: UInt64
    /// GPS time of the last acknowledged point and of the newest point in the journal.
    public var cursorPointTime: GPSTime?
    public var journalPointTime: GPSTime?
    /// Before anything was acknowledged: GPS time of the first point waiting.
    public var pendingSince: GPSTime?
    /// Points delivered since the uplink started.
    public var deliveredPoints: Int
    public var lastError: String?
    public var lastErrorAt: Int64?

    public init(sink: String, deviceID: String, pid: Int32) {
        self.sink = sink
        self.deviceID = deviceID
        self.pid = pid
        updatedAt = 0
        state = "connecting"
        connected = false
        cursor = 0
        journalSequence = 0
        deliveredPoints = 0
    }

    /// Records behind the journal.
    public var lagRecords: UInt64 { journalSequence > cursor ? journalSequence - cursor : 0 }

    /// GPS seconds between the newest journal point and the last acknowledged one.
    public var lagSeconds: Double {
        guard lagRecords > 0, let j = journalPointTime else { return 0 }
        guard let c = cursorPointTime ?? pendingSince else { return 0 }
        return max(0, j.seconds(since: c))
    }

    public var json: JSONValue {
        .object([
            ("sink", .string(sink)), ("device_id", .string(deviceID)), ("pid", .number(Double(pid))),
            ("updated_at_ns", .string(String(updatedAt))), ("state", .string(state)), ("connected", .bool(connected)),
            ("cursor", .number(Double(cursor))), ("journal_seq", .number(Double(journalSequence))),
            ("lag_records", .number(Double(lagRecords))), ("lag_seconds", .number(lagSeconds)),
            ("cursor_point_ns", .string(cursorPointTime.map { String($0.nanoseconds) })),
            ("journal_point_ns", .string(journalPointTime.map { String($0.nanoseconds) })),
            ("pending_since_ns", .string(pendingSince.map { String($0.nanoseconds) })),
            ("delivered_points", .number(Double(deliveredPoints))),
            ("last_error", .string(lastError)), ("last_error_at_ns", .string(lastErrorAt.map { String($0) })),
        ])
    }

    public init?(json: JSONValue) {
        guard let sink = json["sink"]?.stringValue, let device = json["device_id"]?.stringValue else { return nil }
        self.init(sink: sink, deviceID: device, pid: Int32(json["pid"]?.doubleValue ?? 0))
        func ns(_ k: String) -> Int64? { json[k]?.stringValue.flatMap { Int64($0) } }
        updatedAt = ns("updated_at_ns") ?? 0
        state = json["state"]?.stringValue ?? "unknown"
        connected = json["connected"]?.boolValue ?? false
        cursor = UInt64(max(0, json["cursor"]?.doubleValue ?? 0))
        journalSequence = UInt64(max(0, json["journal_seq"]?.doubleValue ?? 0))
        cursorPointTime = ns("cursor_point_ns").map { GPSTime(nanoseconds: $0) }
        journalPointTime = ns("journal_point_ns").map { GPSTime(nanoseconds: $0) }
        pendingSince = ns("pending_since_ns").map { GPSTime(nanoseconds: $0) }
        deliveredPoints = Int(json["delivered_points"]?.doubleValue ?? 0)
        lastError = json["last_error"]?.stringValue
        lastErrorAt = ns("last_error_at_ns")
    }

    /// `<runtimeDirectory>/status-<sink>.json`.
    public static func path(runtimeDirectory: String, sink: String) -> String {
        runtimeDirectory + "/status-" + sink + ".json"
    }
}
