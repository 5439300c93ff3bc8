// SPDX-License-Identifier: MIT
public import LogbookCore

/// A trip began. `id` comes from ``JournalWriter/nextTripID()``.
public struct TripStarted: Sendable, Hashable {
    /// The trip's number.
    public var id: TripID
    /// The vehicle, when known (`[[vehicle]]` id).
    public var vehicleID: String?
    /// Why the trip started, e.g. `power:ignition`, `manual`, `motion`, `service`.
    public var reason: String
    /// GPS time at the start, when a fix was available.
    public var gpsTime: GPSTime?
    /// `CLOCK_MONOTONIC` at the start, nanoseconds (ordering within one boot only).
    public var monotonicNanoseconds: UInt64
    /// The kernel boot id (`/proc/sys/kernel/random/boot_id`), to tell boots apart.
    public var bootID: String

    /// Creates a trip-started record.
    public init(
        id: TripID, vehicleID: String? = nil, reason: String, gpsTime: GPSTime? = nil,
        monotonicNanoseconds: UInt64, bootID: String
    ) {
        self.id = id
        self.vehicleID = vehicleID
        self.reason = reason
        self.gpsTime = gpsTime
        self.monotonicNanoseconds = monotonicNanoseconds
        self.bootID = bootID
    }
}

/// The figures stored with a trip's end (SI units).
public struct TripSummary: Sendable, Hashable {
    /// Metres driven.
    public var distance: Double
    /// Seconds from start to end.
    public var duration: Double
    /// Metres per second.
    public var maxSpeed: Double
    /// Metres per second (distance / duration, 0 for a zero duration).
    public var averageSpeed: Double
    /// Points recorded in the trip.
    public var pointCount: Int

    /// Creates a summary.
    public init(distance: Double, duration: Double, maxSpeed: Double, averageSpeed: Double, pointCount: Int) {
        self.distance = distance
        self.duration = duration
        self.maxSpeed = maxSpeed
        self.averageSpeed = averageSpeed
        self.pointCount = pointCount
    }

    /// An empty trip.
    public static let zero = TripSummary(distance: 0, duration: 0, maxSpeed: 0, averageSpeed: 0, pointCount: 0)
}

/// A trip ended. Appending it makes the writer commit at once.
public struct TripEnded: Sendable, Hashable {
    /// The trip's number.
    public var id: TripID
    /// Why it ended, e.g. `power:ignition`, `motion`, `manual`, `shutdown`, `recovered`.
    public var reason: String
    /// GPS time at the end, when known.
    public var gpsTime: GPSTime?
    /// What the trip engine computed.
    public var summary: TripSummary
    /// True for a trip too short to keep (docs/architecture.md): recorded, not silently dropped.
    public var discarded: Bool
    /// `CLOCK_MONOTONIC` at the end, nanoseconds.
    public var monotonicNanoseconds: UInt64

    /// Creates a trip-ended record.
    public init(
        id: TripID, reason: String, gpsTime: GPSTime? = nil, summary: TripSummary, discarded: Bool = false,
        monotonicNanoseconds: UInt64 = 0
    ) {
        self.id = id
        self.reason = reason
        self.gpsTime = gpsTime
        self.summary = summary
        self.discarded = discarded
        self.monotonicNanoseconds = monotonicNanoseconds
    }
}

/// A vehicle signal changed (ignition line, Bluetooth link, USB device, …).
public struct SignalEvent: Sendable, Hashable {
    /// Where it came from, e.g. `power:ignition`, `bluetooth:AA:BB:…`.
    public var source: String
    /// The vehicle the signal belongs to, when configured.
    public var vehicleID: String?
    /// On (present/powered) or off.
    public var on: Bool
    /// GPS time, when a fix was available.
    public var gpsTime: GPSTime?
    /// `CLOCK_MONOTONIC`, nanoseconds.
    public var monotonicNanoseconds: UInt64

    /// Creates a signal event.
    public init(source: String, vehicleID: String? = nil, on: Bool, gpsTime: GPSTime? = nil, monotonicNanoseconds: UInt64) {
        self.source = source
        self.vehicleID = vehicleID
        self.on = on
        self.gpsTime = gpsTime
        self.monotonicNanoseconds = monotonicNanoseconds
    }
}

/// Something a person (or the configuration) entered: a vehicle, a fuel log, a trip's
/// classification, an odometer reading, a service task, a named place — or a change to one.
///
/// The journal never rewrites: an amendment or a void is a new entry naming the same `type`
/// and `subject`, so the history of every value stays visible. What `fields` holds is up to
/// the entry's type (a JSON object; an amendment carries only what changed).
public struct UserEntry: Sendable, Hashable {
    /// Add, change or withdraw.
    public enum Action: UInt8, Sendable, Hashable {
        case add = 1
        case amend = 2
        case void = 3

        /// `add`, `amend` or `void`, as the index stores it and readers fold it.
        public var name: String {
            switch self {
            case .add: "add"
            case .amend: "amend"
            case .void: "void"
            }
        }
    }

    /// What the entry is about, e.g. `vehicle`, `fuel`, `trip.class`, `odometer`, `service`, `place`.
    public var type: String
    public var action: Action
    /// The id of the thing entered or changed (a vehicle id, a fuel log's id, a trip id…).
    public var subject: String
    /// The values entered, a JSON object.
    public var fields: JSONValue
    /// Wall-clock time of the entry as the entering machine knew it (ns since the epoch).
    public var recordedAt: Int64?
    /// Who or what made it, e.g. `cli`, `web`, `config`, `daemon` (shown with `--history`).
    public var origin: String

    /// The largest `fields` document a journal accepts, serialized (bytes).
    public static let maximumFieldsBytes = 16_384

    /// Creates an entry.
    public init(type: String, action: Action, subject: String, fields: JSONValue = .object([]), recordedAt: Int64? = nil, origin: String) {
        self.type = type
        self.action = action
        self.subject = subject
        self.fields = fields
        self.recordedAt = recordedAt
        self.origin = origin
    }
}

/// What callers append to the journal. Segment headers, checkpoints and seals are internal.
///
/// Each point and each other record consumes one sequence number.
public enum JournalRecord: Sendable, Hashable {
    /// A trip began.
    case tripStarted(TripStarted)
    /// Points of an open trip, in order.
    case points(TripID, [TripPoint])
    /// A trip ended.
    case tripEnded(TripEnded)
    /// An ended trip continues (a restart mid-drive); its points and a new end follow.
    case tripReopened(TripReopened)
    /// A vehicle signal changed.
    case signal(SignalEvent)
    /// Something a person entered, or a change to it.
    case entry(UserEntry)

    /// Sequence numbers the record consumes (one per point, else one).
    var sequenceCount: UInt64 {
        if case .points(_, let points) = self { return UInt64(max(points.count, 1)) }
        return 1
    }
}

/// A record read back from the journal with its sequence number(s).
public struct JournalEntry: Sendable, Hashable {
    /// Sequence number of the record (of its first point for `.points`).
    public var sequence: UInt64
    /// The record.
    public var record: JournalRecord

    /// Creates an entry (consumers building items for tests or replays).
    public init(sequence: UInt64, record: JournalRecord) {
        self.sequence = sequence
        self.record = record
    }
}
