// SPDX-License-Identifier: MIT
/// The figures of a trip for the live state (`trip` / `last_trip` in live.json, docs/reference/live-json.md)
/// and for its end record. SI units.
public struct TripSnapshot: Sendable, Hashable, Codable {
    /// True while the trip is open.
    public var active: Bool
    /// The trip's vehicle id.
    public var vehicle: String?
    /// Why it started (`start_reason`).
    public var startReason: TripReason
    /// GPS time of the start (`started_at`), back-filled from the first fix; nil until a fix.
    public var startedAt: GPSTime?
    /// Monotonic seconds from start to now (open) or to the effective end (`duration_s`).
    public var durationSeconds: Double
    /// Geodesic distance over the trip's moving fixes, metres (`distance_m`).
    public var distanceMeters: Double
    /// Speed of the latest accepted fix, m/s (`speed_mps`); nil before any fix.
    public var speedMetersPerSecond: Double?
    /// Highest fix speed seen, m/s (`max_speed_mps`).
    public var maxSpeedMetersPerSecond: Double
    /// `distanceMeters / durationSeconds` — total, not moving, duration (`avg_speed_mps`).
    public var averageSpeedMetersPerSecond: Double
    /// Points recorded (`points`).
    public var points: Int
    /// GPS time of the effective end (`ended_at`); nil while open or when no fix was seen.
    public var endedAt: GPSTime?
    /// Why it ended (`end_reason`); nil while open.
    public var endReason: TripReason?
    /// Whether the ended trip was discarded as too short.
    public var discarded: Bool

    /// Creates a snapshot.
    public init(
        active: Bool, vehicle: String?, startReason: TripReason, startedAt: GPSTime?,
        durationSeconds: Double, distanceMeters: Double, speedMetersPerSecond: Double?,
        maxSpeedMetersPerSecond: Double, averageSpeedMetersPerSecond: Double, points: Int,
        endedAt: GPSTime? = nil, endReason: TripReason? = nil, discarded: Bool = false
    ) {
        self.active = active
        self.vehicle = vehicle
        self.startReason = startReason
        self.startedAt = startedAt
        self.durationSeconds = durationSeconds
        self.distanceMeters = distanceMeters
        self.speedMetersPerSecond = speedMetersPerSecond
        self.maxSpeedMetersPerSecond = maxSpeedMetersPerSecond
        self.averageSpeedMetersPerSecond = averageSpeedMetersPerSecond
        self.points = points
        self.endedAt = endedAt
        self.endReason = endReason
        self.discarded = discarded
    }
}
