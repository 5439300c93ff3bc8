// SPDX-License-Identifier: MIT
public import LogbookCore

/// Makes synthetic fixes: a vehicle moving on straight legs at a given speed, once a second.
///
/// Positions use a local flat-earth step (metres to degrees at the current latitude), which is
/// exact enough for tests; distances are then measured independently of how they were made.
public struct TrackBuilder: Sendable {
    /// Current position, degrees.
    public var latitude: Double
    /// Current position, degrees.
    public var longitude: Double
    /// GPS time of the next fix.
    public var time: GPSTime
    /// eph of the fixes made, metres.
    public var eph: Double?

    /// Starts at a position and GPS time (default: Munich, 2026-11-22T10:00:00Z).
    public init(
        latitude: Double = 48.1808, longitude: Double = 11.5651,
        time: GPSTime = GPSTime(seconds: 1_795_341_600), eph: Double? = 5
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.time = time
        self.eph = eph
    }

    /// A fix at the current position and time with `speed` (m/s) and `track` (degrees).
    public func fix(speed: Double? = 0, track: Double? = nil, mode: FixMode = .threeD) -> Fix {
        Fix(
            time: time, mode: mode, latitude: latitude, longitude: longitude, altitudeMSL: 520,
            speed: speed, track: track, eph: eph, satellitesUsed: 8)
    }

    /// Moves `metres` north (positive) and east.
    public mutating func move(north: Double, east: Double = 0) {
        latitude += north / 111_132.954
        longitude += east / (111_319.491 * cosDegrees(latitude))
    }

    /// Advances GPS time by `seconds`.
    public mutating func tick(_ seconds: Double = 1) {
        time = GPSTime(nanoseconds: time.nanoseconds + Int64(seconds * 1e9))
    }

    /// `count` one-second fixes moving north-east by `speed` m/s (the first after one step).
    public mutating func drive(seconds count: Int, speed: Double, bearingNorth: Double = 1, bearingEast: Double = 0)
        -> [Fix]
    {
        let norm = (bearingNorth * bearingNorth + bearingEast * bearingEast).squareRoot()
        return (0..<count).map { _ in
            tick()
            move(north: speed * bearingNorth / norm, east: speed * bearingEast / norm)
            return fix(speed: speed, track: 0)
        }
    }

    /// `count` one-second fixes standing still (speed 0).
    public mutating func park(seconds count: Int) -> [Fix] {
        (0..<count).map { _ in
            tick()
            return fix(speed: 0)
        }
    }
}

/// cos of degrees, by a short Taylor series after range reduction (no libc in test helpers
/// that do not need it; accurate to ~1e-12 for |x| ≤ 90°).
func cosDegrees(_ degrees: Double) -> Double {
    let x = degrees * .pi / 180
    let x2 = x * x
    var term = 1.0, sum = 1.0
    for n in stride(from: 2, through: 30, by: 2) {
        term *= -x2 / Double((n - 1) * n)
        sum += term
    }
    return sum
}
