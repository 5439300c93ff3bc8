// SPDX-License-Identifier: MIT
/// The live-activity state of docs/architecture.md (`live.json`, socket `status`/`watch`), schema 1.
public struct LiveState: Sendable, Equatable {
    public static let schema = 1

    /// Increases with every published update.
    public var seq: UInt64 = 0
    /// Wall-clock time of the update.
    public var updatedAt: GPSTime = GPSTime(nanoseconds: 0)
    public var gps = GPSBlock()
    /// The privacy zone the car is in: then `gps` carries no position, speed or heading.
    public var inPrivacyZone: String?
    /// The named place or privacy zone the car arrived at (``PlaceTracker``) and since when.
    public var place: PlaceBlock?
    /// Whether the journal is writing, or holding records in memory (a full disk).
    public var journal = JournalBlock()
    /// The Pi's supply: under-voltage and throttling (``ThrottledFlags``).
    public var power = PowerBlock()
    /// The trip being recorded, nil when idle.
    public var trip: TripBlock?
    /// The last ended trip, for 60 s after it ended.
    public var lastTrip: TripBlock?
    /// The OBD sources (`LiveState+OBD.swift`); none without an `obd` source.
    public var obd: [OBDBlock] = []

    public init() {}

    /// The receiver and connection half of the state.
    public struct GPSBlock: Sendable, Equatable {
        public var connected = false
        public var mode: FixMode = .notSeen
        public var time: GPSTime?
        public var latitude: Double?
        public var longitude: Double?
        public var speed: Double?
        public var track: Double?
        public var eph: Double?
        public var satellitesUsed: Int?
        /// Distinct fixes accepted since the daemon started.
        public var fixes = 0
        /// Fixes the filter refused (the sum of ``rejectedByReason``).
        public var rejected = 0
        /// Fixes the filter refused, by reason (`rejected_by_reason`: every reason, 0 included).
        public var rejectedByReason: [FixRejectReason: Int] = [:]
        public init() {}
    }

    /// The journal's health. While `status` is not "ok" the daemon keeps recording into a
    /// bounded in-memory buffer and retries every commit interval; nothing is lost until the
    /// buffer is full (then points are dropped and counted, trip ends still kept).
    public struct JournalBlock: Sendable, Equatable {
        /// "ok", "disk full" (no space for the next commit) or "error" (an I/O error).
        public var status = "ok"
        /// Records (a record holds up to 1,024 points) waiting in memory for the disk.
        public var pendingRecords = 0
        /// Their size as they will be written, bytes, and the most the buffer holds.
        public var pendingBytes = 0
        public var bufferBytes = 0
        /// Points dropped because the buffer was full (since the daemon started).
        public var droppedPoints = 0
        /// The last error, while it lasts.
        public var error: String?
        /// The highest sequence number whose commit's `fdatasync` returned: everything up to
        /// it survives a power cut.
        public var durableSequence: UInt64 = 0
        /// Bytes the journal wrote and its `fdatasync`/`fsync` calls since the daemon started.
        public var bytesWritten = 0
        public var syncs = 0
        public init() {}

        /// The one-line form for `STATUS=` and `logbook status`, nil when all is well.
        public var problem: String? {
            guard status != "ok" else { return nil }
            let used = bufferBytes > 0 ? Int((Double(pendingBytes) / Double(bufferBytes) * 100).rounded(.up)) : 0
            var s = "journal: \(status), \(min(used, 100)) % of the memory buffer used"
            if droppedPoints > 0 { s += ", \(droppedPoints) points dropped" }
            return s
        }
    }

    /// The Raspberry Pi's supply as its firmware reports it.
    public struct PowerBlock: Sendable, Equatable {
        /// `ok`, the first condition happening now (`under-voltage`, `frequency-capped`,
        /// `throttled`, `soft-temperature-limit`), or `unavailable` (no flags to read).
        public var status = "unavailable"
        /// The flags as read, nil when unavailable.
        public var flags: ThrottledFlags?
        public init() {}

        /// The one-line form for `STATUS=`, nil when nothing is happening now.
        public var problem: String? {
            guard let flags, !flags.now.isEmpty else { return nil }
            return "power: " + flags.now.map(\.rawValue).joined(separator: ", ")
        }
    }

    /// A trip's summary as the live state shows it.
    public struct TripBlock: Sendable, Equatable {
        public var id: TripID
        public var active: Bool
        public var vehicle: Vehicle?
        public var startedAt: GPSTime?
        public var startReason: String
        public var durationSeconds: Double
        public var distanceMeters: Double
        public var speed: Double?
        public var maxSpeed: Double
        public var averageSpeed: Double
        public var points: Int
        public var endedAt: GPSTime?
        public var endReason: String?
        /// Where the trip began, when the daemon knows a name for it (the privacy zone it left).
        public var startPlace: String?

        public init(
            id: TripID, active: Bool, vehicle: Vehicle?, startedAt: GPSTime?, startReason: String,
            durationSeconds: Double, distanceMeters: Double, speed: Double?, maxSpeed: Double,
            averageSpeed: Double, points: Int, endedAt: GPSTime? = nil, endReason: String? = nil,
            startPlace: String? = nil
        ) {
            self.id = id
            self.active = active
            self.vehicle = vehicle
            self.startedAt = startedAt
            self.startReason = startReason
            self.durationSeconds = durationSeconds
            self.distanceMeters = distanceMeters
            self.speed = speed
            self.maxSpeed = maxSpeed
            self.averageSpeed = averageSpeed
            self.points = points
            self.endedAt = endedAt
            self.endReason = endReason
            self.startPlace = startPlace
        }
    }
}

extension LiveState {
    /// The JSON object, fields in the documented order, SI units.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("schema", .number(Double(Self.schema))),
            ("seq", .number(Double(seq))),
            ("updated_at", .string(updatedAt.description)),
            ("gps", gps.json),
            ("in_privacy_zone", .string(inPrivacyZone)),
            ("place", place?.json ?? .null),
            ("journal", journal.json),
            ("power", power.json),
            ("trip", trip?.json ?? .null),
            ("last_trip", lastTrip?.json ?? .null),
        ]
        if !obd.isEmpty { members.append(("obd", .array(obd.map(\.json)))) }
        return .object(members)
    }
}

extension LiveState.GPSBlock {
    public var json: JSONValue {
        .object([
            ("connected", .bool(connected)),
            ("mode", .number(Double(mode.rawValue))),
            ("time", .string(time?.description)),
            ("lat", .number(latitude)),
            ("lon", .number(longitude)),
            ("speed_mps", .number(speed)),
            ("track_deg", .number(track)),
            ("eph_m", .number(eph)),
            ("satellites_used", .integer(satellitesUsed)),
            ("fixes", .number(Double(fixes))),
            ("rejected", .number(Double(rejected))),
            ("rejected_by_reason", .object(FixRejectReason.allCases.map { ($0.rawValue, .number(Double(rejectedByReason[$0] ?? 0))) })),
        ])
    }
}

extension LiveState.JournalBlock {
    public var json: JSONValue {
        .object([
            ("status", .string(status)),
            ("pending_records", .number(Double(pendingRecords))),
            ("pending_bytes", .number(Double(pendingBytes))),
            ("buffer_bytes", .number(Double(bufferBytes))),
            ("dropped_points", .number(Double(droppedPoints))),
            ("error", .string(error)),
            ("durable_seq", .number(Double(durableSequence))),
            ("bytes_written", .number(Double(bytesWritten))),
            ("syncs", .number(Double(syncs))),
        ])
    }
}

extension LiveState.PowerBlock {
    public var json: JSONValue {
        .object([
            ("status", .string(status)),
            ("throttled_flags", .string(flags?.hex)),
            ("now", flags.map { .array($0.now.map { .string($0.rawValue) }) } ?? .null),
            ("since_boot", flags.map { .array($0.sinceBoot.map { .string($0.rawValue) }) } ?? .null),
        ])
    }
}

extension LiveState.TripBlock {
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("id", .string(id.description)),
            ("active", .bool(active)),
            ("vehicle", vehicle?.json ?? .null),
            ("started_at", .string(startedAt?.description)),
            ("start_reason", .string(startReason)),
            ("duration_s", .number(durationSeconds.rounded())),
            ("distance_m", .number((distanceMeters * 10).rounded() / 10)),
            ("speed_mps", .number(speed)),
            ("max_speed_mps", .number(maxSpeed)),
            ("avg_speed_mps", .number(averageSpeed)),
            ("points", .number(Double(points))),
            ("start_place", .string(startPlace)),
        ]
        if !active {
            members.append(("ended_at", .string(endedAt?.description)))
            members.append(("end_reason", .string(endReason)))
        }
        return .object(members)
    }
}

extension Vehicle {
    public var json: JSONValue {
        .object([
            ("id", .string(id)), ("name", .string(name)), ("make", .string(make)),
            ("model", .string(model)), ("year", .integer(year)), ("registration", .string(registration)),
        ])
    }
}
