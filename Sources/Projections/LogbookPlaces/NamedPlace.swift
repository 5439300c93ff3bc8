// SPDX-License-Identifier: MIT
internal import LogbookCore

/// A place a person named: a circle ("Home", "Customer Müller AG").
public struct NamedPlace: Sendable, Hashable {
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

    /// The named place for a position: of the circles that contain it, the one whose centre
    /// is nearest (TeslaMate's geofence rule), or nil.
    public static func containing(latitude: Double, longitude: Double, in places: some Sequence<NamedPlace>) -> NamedPlace? {
        var best: (place: NamedPlace, distance: Double)?
        for place in places {
            let d = place.distance(latitude: latitude, longitude: longitude)
            guard d <= place.radius, d < best?.distance ?? .infinity else { continue }
            best = (place, d)
        }
        return best?.place
    }
}
