// SPDX-License-Identifier: MIT
/// Running figures of one trip, updated fix by fix.
public struct TripStats: Sendable, Hashable {
    /// Monotonic instant the trip counts from.
    public var startInstant: MonotonicInstant
    /// GPS time of the start; back-filled from the first fix when the trip began without one.
    public var startTime: GPSTime?
    /// Metres over moving fixes (geodesic, consecutive steps).
    public var distance: Double = 0
    /// Speed of the latest fix, m/s.
    public var currentSpeed: Double?
    /// Highest fix speed, m/s.
    public var maxSpeed: Double = 0
    /// Points recorded.
    public var points = 0
    /// GPS time of the latest accepted fix in the trip.
    public var lastFixTime: GPSTime?
    /// Seconds the trip lasted before ``startInstant`` (a trip continued after a restart: its
    /// duration before the restart plus the gap, by GPS time).
    public var priorDuration: Double = 0

    /// Starts the figures of a trip.
    public init(startInstant: MonotonicInstant, startTime: GPSTime?) {
        self.startInstant = startInstant
        self.startTime = startTime
    }

    /// Takes an accepted fix into account. `step` is the distance it adds (0 for jitter).
    /// The speed is the fix's own, or `step` over the time since the previous fix.
    public mutating func add(_ fix: Fix, step: Double) {
        if startTime == nil { startTime = fix.time }
        var speed = fix.speed.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        if speed == nil, let last = lastFixTime, fix.time > last {
            speed = step / fix.time.seconds(since: last)
        }
        if step.isFinite, step > 0 { distance += step }
        currentSpeed = speed ?? currentSpeed
        if let speed { maxSpeed = max(maxSpeed, speed) }
        lastFixTime = fix.time
    }

    /// Monotonic seconds from the start to `end` (never negative), plus ``priorDuration``.
    public func duration(until end: MonotonicInstant) -> Double {
        priorDuration + max(0, end.seconds(since: startInstant))
    }

    /// Distance over total duration to `end`, m/s (0 for a zero duration).
    public func averageSpeed(until end: MonotonicInstant) -> Double {
        let d = duration(until: end)
        return d > 0 ? distance / d : 0
    }
}
