// SPDX-License-Identifier: MIT
/// An output of the ``TripEngine``: something the daemon must carry out, in order.
public enum TripDecision: Sendable, Hashable, Codable {
    /// Open a new trip (the journal assigns its id).
    case start(TripStartInfo)
    /// Continue the journal's previous trip instead of starting one: the daemon restarted
    /// mid-drive (``TripEngine/offerReopen(_:at:)``). A `gap` decision follows.
    case reopened(TripReopenInfo)
    /// Append this point to the open trip.
    case point(TripPoint)
    /// The open trip had no fix for a while; recorded so the track's hole is explained.
    case gap(TripGap)
    /// A source took over the open trip (e.g. ignition on during a motion-started trip); the
    /// trip's vehicle is now `vehicle`.
    case adopted(vehicle: String?, reason: TripReason)
    /// Close the open trip.
    case end(TripEndInfo)
    /// The open trip left or entered a privacy zone (recorded so the logbook can say where a
    /// trip began or ended without a position inside the zone).
    case privacyZone(PrivacyZoneCrossing)
}

/// A trip crossing a privacy zone's edge.
public struct PrivacyZoneCrossing: Sendable, Hashable, Codable {
    /// The zone's name.
    public var zone: String
    /// True when the trip went in, false when it came out.
    public var entered: Bool
    /// GPS time at the edge (interpolated between the fixes either side).
    public var time: GPSTime

    public init(zone: String, entered: Bool, time: GPSTime) {
        self.zone = zone
        self.entered = entered
        self.time = time
    }
}

/// How a trip started.
public struct TripStartInfo: Sendable, Hashable, Codable {
    /// The vehicle of the source that started the trip (or the configured default).
    public var vehicle: String?
    /// Why it started.
    public var reason: TripReason
    /// GPS time of the start: the first fix of a motion start, the latest fix within a few
    /// seconds of a signal start, else nil (then back-filled from the trip's first point).
    public var gpsTime: GPSTime?
    /// Monotonic instant the trip counts from (earlier than "now" for motion starts, which are
    /// confirmed after the movement began).
    public var startedAt: MonotonicInstant

    /// Creates a start description.
    public init(vehicle: String?, reason: TripReason, gpsTime: GPSTime?, startedAt: MonotonicInstant) {
        self.vehicle = vehicle
        self.reason = reason
        self.gpsTime = gpsTime
        self.startedAt = startedAt
    }
}

/// How a trip ended.
public struct TripEndInfo: Sendable, Hashable, Codable {
    /// Why it ended.
    public var reason: TripReason
    /// The trip's final figures (`active == false`).
    public var summary: TripSnapshot
    /// True when the trip was too short to count (< 50 m and < 60 s by default): the journal
    /// records it as discarded rather than dropping it.
    public var discarded: Bool

    /// Creates an end description.
    public init(reason: TripReason, summary: TripSnapshot, discarded: Bool) {
        self.reason = reason
        self.summary = summary
        self.discarded = discarded
    }
}

/// A stretch of the open trip without any accepted fix.
public struct TripGap: Sendable, Hashable, Codable {
    /// GPS time of the last fix before the gap.
    public var from: GPSTime
    /// GPS time of the first fix after it.
    public var to: GPSTime
    /// Length of the gap on the monotonic clock, seconds.
    public var seconds: Double
    /// True when the gap was bridged: the straight-line distance across it counts towards the
    /// trip (gaps up to ``TripEngineConfiguration/maxBridgedGap``); false when longer gaps
    /// leave the distance across uncounted.
    public var bridged: Bool

    /// Creates a gap description.
    public init(from: GPSTime, to: GPSTime, seconds: Double, bridged: Bool) {
        self.from = from
        self.to = to
        self.seconds = seconds
        self.bridged = bridged
    }
}
