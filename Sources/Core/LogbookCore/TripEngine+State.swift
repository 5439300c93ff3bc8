// SPDX-License-Identifier: MIT
// The engine's internal bookkeeping types, kept apart from its logic.

/// A connection source, identified by kind and name.
struct SourceKey: Sendable, Hashable {
    var kind: VehicleSignal.Kind
    var name: String

    var reason: TripReason { VehicleSignal(kind: kind, name: name, isOn: true).reason }
}

/// Where the vehicle has stood (within a radius) since when.
struct StopAnchor: Sendable, Hashable {
    var fix: Fix
    var instant: MonotonicInstant
}

/// What is about to end the open trip.
enum Closing: Sendable, Hashable {
    /// The last source went off at `since`; ends with `reason` at `deadline`.
    case powerOff(reason: TripReason, since: MonotonicInstant, deadline: MonotonicInstant, endTime: GPSTime?)
    /// Motion stop found; held for the short-stop merge window until `deadline`.
    case parked(anchor: StopAnchor, deadline: MonotonicInstant)
}

/// An accepted fix waiting in a motion candidate, with what the filter said about it.
struct PendingFix: Sendable, Hashable {
    var fix: Fix
    var moved: Bool
    var step: Double
    var instant: MonotonicInstant
}

/// Movement seen while idle that may become a motion-started trip.
struct MotionCandidate: Sendable, Hashable {
    var fixes: [PendingFix]
    /// Since when the speed has been at or above the start speed without a break.
    var fastSince: MonotonicInstant?
    /// Whether the speed has been held long enough at least once.
    var sustained = false
    /// When the speed was last at or above the start speed.
    var lastFast: MonotonicInstant

    var first: PendingFix? { fixes.first }
}

/// The open trip.
struct OpenTrip: Sendable {
    var vehicle: String?
    var startReason: TripReason
    var stats: TripStats
    /// Started or taken over manually: only manual stop, shutdown or a gap end it.
    var manual: Bool
    /// Started or adopted by a connection source: ends by power-off grace, not by motion.
    var heldBySources: Bool
    /// The latest fix or signal for this trip (the no-data timer runs from here).
    var lastData: MonotonicInstant
    var closing: Closing?
    /// Motion-stop tracking: where the vehicle has stayed within the stop radius since when.
    var stopAnchor: StopAnchor?
    var lastPoint: TripPoint?
    var lastFixInstant: MonotonicInstant?
    /// Whether the latest fix looked stationary (slow or jitter).
    var lastFixSlow = false
    /// The latest accepted fix of the trip, and the privacy zone it was in (privacy zones
    /// need the position before a crossing to place the edge point).
    var lastTripFix: TripPoint?
    var privacyZone: PrivacyZone?

    func snapshot(until end: MonotonicInstant, active: Bool) -> TripSnapshot {
        TripSnapshot(
            active: active, vehicle: vehicle, startReason: startReason, startedAt: stats.startTime,
            durationSeconds: stats.duration(until: end), distanceMeters: stats.distance,
            speedMetersPerSecond: stats.currentSpeed, maxSpeedMetersPerSecond: stats.maxSpeed,
            averageSpeedMetersPerSecond: stats.averageSpeed(until: end), points: stats.points)
    }
}
