// SPDX-License-Identifier: MIT
/// A named circle on the ground: a centre (WGS 84 degrees) and a radius in metres.
///
/// The one geographic circle: a privacy zone (``PrivacyZone``, `[[privacy_zone]]`) and a place a
/// person named (`NamedPlace` in LogbookPlaces) are both this type; they differ in which circle
/// wins where several hold a position (``first(containingLatitude:longitude:in:)`` for privacy
/// zones, ``nearest(containingLatitude:longitude:in:)`` for places).
public struct GeoCircle: Sendable, Hashable, Codable {
    public var name: String
    public var latitude: Double
    public var longitude: Double
    /// Metres.
    public var radius: Double

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

    /// The first of `circles` that contains the position, in their order (privacy zones: the
    /// first listed wins where zones overlap).
    public static func first(containingLatitude latitude: Double, longitude: Double, in circles: [GeoCircle]) -> GeoCircle? {
        circles.first { $0.contains(latitude: latitude, longitude: longitude) }
    }

    /// Of the circles that contain the position, the one whose centre is nearest, or nil
    /// (named places: TeslaMate's geofence rule; a bigger circle does not win over a nearer centre).
    public static func nearest(
        containingLatitude latitude: Double, longitude: Double, in circles: some Sequence<GeoCircle>
    ) -> GeoCircle? {
        var best: (circle: GeoCircle, distance: Double)?
        for circle in circles {
            let d = circle.distance(latitude: latitude, longitude: longitude)
            guard d <= circle.radius, d < best?.distance ?? .infinity else { continue }
            best = (circle, d)
        }
        return best?.circle
    }
}
