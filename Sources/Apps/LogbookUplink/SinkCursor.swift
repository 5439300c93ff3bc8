// SPDX-License-Identifier: MIT
public import LogbookCore
public import LogbookJournal

/// What a sink has acknowledged: the journal position after the last batch the broker
/// acknowledged or the database committed, plus state the sink derives from the records
/// (the MQTT sink's vehicle ledger), saved together so they never disagree.
public struct SinkCursor: Sendable, Equatable {
    /// The device the cursor belongs to; a cursor for another device (another journal) is
    /// ignored rather than applied.
    public var deviceID: String
    public var position: JournalPosition
    /// GPS time of the last acknowledged point (for the lag in seconds).
    public var lastPointTime: GPSTime?
    /// Wall-clock time of the acknowledgement.
    public var acknowledgedAt: Int64
    /// Sink-specific state.
    public var state: JSONValue

    public init(deviceID: String, position: JournalPosition = .start, lastPointTime: GPSTime? = nil,
                acknowledgedAt: Int64 = 0, state: JSONValue = .null) {
        self.deviceID = deviceID
        self.position = position
        self.lastPointTime = lastPointTime
        self.acknowledgedAt = acknowledgedAt
        self.state = state
    }

    /// The file's JSON form.
    public var json: JSONValue {
        .object([
            ("device_id", .string(deviceID)),
            ("sequence", .number(Double(position.sequence))),
            ("segment", .string(position.segment)),
            ("checkpoint_head", .string(Hex.encode(position.checkpointHead))),
            ("last_point_time", .string(lastPointTime.map(ISO8601.format))),
            ("last_point_ns", lastPointTime.map { .string(String($0.nanoseconds)) } ?? .null),
            ("acknowledged_at_ns", .string(String(acknowledgedAt))),
            ("state", state),
        ])
    }

    /// Parses the file's JSON form; nil when it is not a cursor.
    public init?(json: JSONValue) {
        guard let device = json["device_id"]?.stringValue, let seq = json["sequence"]?.doubleValue,
            seq >= 0, seq < 9.0e15
        else { return nil }
        let head = json["checkpoint_head"]?.stringValue.flatMap(Hex.decode) ?? []
        self.init(
            deviceID: device,
            position: JournalPosition(sequence: UInt64(seq), segment: json["segment"]?.stringValue ?? "", checkpointHead: head),
            lastPointTime: json["last_point_ns"]?.stringValue.flatMap { Int64($0) }.map { GPSTime(nanoseconds: $0) },
            acknowledgedAt: json["acknowledged_at_ns"]?.stringValue.flatMap { Int64($0) } ?? 0,
            state: json["state"] ?? .null)
    }
}

/// The uplink's state directory: one cursor file per sink, `cursor-<sink>.json`.
public struct CursorStore: Sendable {
    public let directory: String

    public init(directory: String) { self.directory = directory }

    /// `<directory>/cursor-<sink>.json`.
    public func path(sink: String) -> String { directory + "/cursor-" + sink + ".json" }

    /// The saved cursor, nil when none (first run) — or when the file is not a cursor.
    public func load(sink: String) throws(UplinkError) -> SinkCursor? {
        guard let bytes = try AtomicFile.read(path(sink: sink)) else { return nil }
        guard let json = try? JSONValue.parse(bytes) else { return nil }
        return SinkCursor(json: json)
    }

    /// Saves atomically and durably (temp file, fsync, rename, fsync of the directory).
    public func save(_ cursor: SinkCursor, sink: String) throws(UplinkError) {
        try AtomicFile.write(Array((cursor.json.serialized + "\n").utf8), to: path(sink: sink))
    }
}
