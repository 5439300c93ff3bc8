// SPDX-License-Identifier: MIT
/// A circle whose inside is never recorded (`[[privacy_zone]]`): no point inside it reaches
/// the journal, and so neither the index, the exports nor the uplinks; the live state shows
/// the zone's name instead of a position.
public struct PrivacyZone: Sendable, Hashable, Codable {
    public var name: String
    public var latitude: Double
    public var longitude: Double
    /// Metres.
    public var radius: Double

    /// How far past the edge the boundary point is placed, metres: far enough that no
    /// rounding (the journal stores 1e-7°, about 1 cm) can put it back inside.
    public static let edgeMargin = 1.0

    public init(name: String, latitude: Double, longitude: Double, radius: Double) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
    }

    /// Geodesic distance from the centre, metres.
    public func distance(latitude lat: Double, longitude lon: Double) -> Double {
        Geodesy.distance(fromLatitude: latitude, longitude: longitude, toLatitude: lat, longitude: lon)
    }

    /// True when the position is inside (or on) the circle.
    public func contains(latitude lat: Double, longitude lon: Double) -> Bool {
        // A cheap box first: one degree of latitude is at least 110.5 km.
        guard abs(lat - latitude) * 110_000 <= radius + 1_000 else { return false }
        return distance(latitude: lat, longitude: lon) <= radius
    }

    /// The zone containing the position, if any (the first listed wins where zones overlap).
    public static func containing(latitude: Double, longitude: Double, in zones: [PrivacyZone]) -> PrivacyZone? {
        zones.first { $0.contains(latitude: latitude, longitude: longitude) }
    }

    /// Where the straight line from `inside` to `outside` crosses the edge, moved
    /// ``edgeMargin`` outwards, with time, speed and altitude interpolated: the point a trip
    /// records where it leaves (or enters) the zone. Bisection on the geodesic distance.
    public func edgePoint(inside: TripPoint, outside: TripPoint) -> TripPoint {
        let target = radius + Self.edgeMargin
        var lo = 0.0, hi = 1.0  // lo: at or inside the target circle, hi: outside it
        func at(_ f: Double) -> TripPoint { Self.interpolate(inside, outside, f) }
        guard distance(latitude: outside.latitude, longitude: outside.longitude) > target else { return outside }
        for _ in 0..<40 {
            let mid = (lo + hi) / 2
            let p = at(mid)
            if distance(latitude: p.latitude, longitude: p.longitude) > target { hi = mid } else { lo = mid }
        }
        return at(hi)
    }

    static func interpolate(_ a: TripPoint, _ b: TripPoint, _ f: Double) -> TripPoint {
        func mix(_ x: Double?, _ y: Double?) -> Double? {
            guard let x, let y else { return y ?? x }
            return x + (y - x) * f
        }
        let dt = Double(b.time.nanoseconds - a.time.nanoseconds) * f
        return TripPoint(
            time: GPSTime(nanoseconds: a.time.nanoseconds + Int64(dt.rounded())),
            latitude: a.latitude + (b.latitude - a.latitude) * f,
            longitude: a.longitude + (b.longitude - a.longitude) * f,
            speed: mix(a.speed, b.speed), track: b.track, altitude: mix(a.altitude, b.altitude), eph: mix(a.eph, b.eph))
    }
}
