// SPDX-License-Identifier: MIT
/// The journal's last trip as the daemon finds it at start, offered to the ``TripEngine``
/// so that a reboot mid-drive (the starter motor dipping the supply) does not split the trip
/// (``TripEngine/offerReopen(_:at:)``).
public struct PreviousTrip: Sendable, Hashable, Codable {
    /// The trip's number in the journal.
    public var id: TripID
    /// Its vehicle, when known.
    public var vehicle: String?
    /// Why it started.
    public var startReason: TripReason
    /// GPS time of its start.
    public var startTime: GPSTime?
    /// Why it ended: only `recovered` (a crash or power cut) and `shutdown` qualify.
    public var endReason: TripReason
    /// Its last recorded point: where and when (GPS time) it ended.
    public var lastPoint: TripPoint
    /// Its figures as its end record stored them.
    public var distance: Double
    public var duration: Double
    public var maxSpeed: Double
    public var points: Int

    /// Creates a description of the previous trip.
    public init(
        id: TripID, vehicle: String?, startReason: TripReason, startTime: GPSTime?, endReason: TripReason,
        lastPoint: TripPoint, distance: Double, duration: Double, maxSpeed: Double, points: Int
    ) {
        self.id = id
        self.vehicle = vehicle
        self.startReason = startReason
        self.startTime = startTime
        self.endReason = endReason
        self.lastPoint = lastPoint
        self.distance = distance
        self.duration = duration
        self.maxSpeed = maxSpeed
        self.points = points
    }
}

/// A trip the engine continued instead of starting a new one (``TripDecision/reopened(_:)``).
public struct TripReopenInfo: Sendable, Hashable, Codable {
    /// The trip continued (its id, vehicle, start and figures before the gap).
    public var previous: PreviousTrip
    /// The stretch without data: from its last point to the fix that continued it (GPS
    /// time); always recorded, always bridged.
    public var gap: TripGap
    /// Monotonic instant the continued trip counts from again.
    public var resumedAt: MonotonicInstant

    /// Creates a reopen description.
    public init(previous: PreviousTrip, gap: TripGap, resumedAt: MonotonicInstant) {
        self.previous = previous
        self.gap = gap
        self.resumedAt = resumedAt
    }
}
