// SPDX-License-Identifier: MIT
public import LogbookCore

/// What one part of a corrected trip (a stretch of a recorded trip, ``TripCorrections/Part``)
/// contributes, measured from the recorded trip's points: the one rule the index and the
/// uplink both apply to merged and split trips.
///
/// The part's distance is the daemon's distance of the recorded trip shared out by the
/// geodesic length of the part's points (a step counts for the part that holds its end
/// point), so splitting a trip never changes a total.
public struct TripPartFigures: Sendable, Hashable {
    /// A position in degrees.
    public struct Position: Sendable, Hashable {
        public var latitude: Double
        public var longitude: Double
    }

    /// The first point's time (the recorded start for a part from the trip's start).
    public var start: GPSTime?
    /// The last point's time (the recorded end for a part to the end of a closed trip).
    public var end: GPSTime?
    /// Metres: the part's share of the recorded distance.
    public var distance = 0.0
    public var points = 0
    public var maxSpeed = 0.0
    public var first: Position?
    public var last: Position?

    /// Measures `part` over `all`, the recorded trip's points in journal order.
    ///
    /// - Parameters:
    ///   - recordedDistance: the daemon's distance of the whole recorded trip (metres).
    ///   - recordedStart: the recorded trip's start time, if known.
    ///   - recordedEnd: its end time; nil while the trip is still open.
    public init(part: TripCorrections.Part, points all: [TripPoint], recordedDistance: Double, recordedStart: GPSTime?, recordedEnd: GPSTime?) {
        var whole = 0.0, inside = 0.0
        var previous: TripPoint?
        for p in all {
            let within = (part.from.map { p.time >= $0 } ?? true) && (part.until.map { p.time < $0 } ?? true)
            if let q = previous, p.latitude.isFinite, q.latitude.isFinite {
                let step = Geodesy.distance(q, p)
                if step.isFinite {
                    whole += step
                    if within { inside += step }
                }
            }
            if p.latitude.isFinite { previous = p }
            guard within else { continue }
            if points == 0 {
                start = p.time
                if p.latitude.isFinite { first = Position(latitude: p.latitude, longitude: p.longitude) }
            }
            if p.latitude.isFinite { last = Position(latitude: p.latitude, longitude: p.longitude) }
            end = p.time
            if let s = p.speed { maxSpeed = max(maxSpeed, s) }
            points += 1
        }
        if points > 0, part.from == nil { start = recordedStart ?? start }
        if points > 0, part.until == nil, let recordedEnd { end = recordedEnd }
        distance = whole > 0 ? recordedDistance * inside / whole : 0
    }

    /// Restores figures kept elsewhere (the uplink's saved ledger).
    public init(start: GPSTime?, end: GPSTime?, distance: Double, points: Int, maxSpeed: Double = 0) {
        self.start = start
        self.end = end
        self.distance = distance
        self.points = points
        self.maxSpeed = maxSpeed
    }
}
