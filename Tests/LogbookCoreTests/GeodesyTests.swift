// SPDX-License-Identifier: MIT
import LogbookCore
import Testing

/// Reference distances: Vincenty's own example and GeographicLib (Karney) `Inverse` results
/// on WGS-84, which are exact to the nanometre.
struct GeodesyTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        var lat1: Double, lon1: Double, lat2: Double, lon2: Double, metres: Double
        var testDescription: String { "(\(lat1), \(lon1)) → (\(lat2), \(lon2))" }
    }

    static let ordinary: [Vector] = [
        // Flinders Peak → Buninyong (Vincenty 1975; 54 972.271 m).
        Vector(
            lat1: -(37 + 57 / 60.0 + 3.72030 / 3600), lon1: 144 + 25 / 60.0 + 29.52440 / 3600,
            lat2: -(37 + 39 / 60.0 + 10.15610 / 3600), lon2: 143 + 55 / 60.0 + 35.38390 / 3600,
            metres: 54_972.271_139_200_79),
        Vector(lat1: 0, lon1: 0, lat2: 0, lon2: 1, metres: 111_319.490_793_273_57),  // equatorial
        Vector(lat1: 0, lon1: 0, lat2: 1, lon2: 0, metres: 110_574.388_557_798_78),  // meridional
        Vector(lat1: 0, lon1: 0, lat2: 90, lon2: 0, metres: 10_001_965.729_312_724),  // quarter meridian
        Vector(lat1: 48.1808, lon1: 11.5651, lat2: 48.1806, lon2: 11.5652, metres: 23.449_165_862_243_913),
        Vector(lat1: 47.3325, lon1: 7.8211, lat2: 47.3320, lon2: 7.8200, metres: 100.013_088_631_361_63),
        Vector(lat1: 52.0, lon1: 13.0, lat2: 52.0, lon2: 13.0001, metres: 6.867_801_607_913_306),
        Vector(lat1: -89.9, lon1: 10, lat2: -89.9, lon2: -170, metres: 22_338.795_682_520_195),  // over the pole
        Vector(lat1: 45, lon1: 179.9999, lat2: 45, lon2: -179.9999, metres: 15.769_367_019_315_132),  // antimeridian
        Vector(lat1: 0, lon1: 0, lat2: 0, lon2: 179.5, metres: 19_980_861.908_890_963),
    ]

    /// Nearly antipodal pairs, where Vincenty's iteration fails and the fallback answers.
    static let antipodal: [Vector] = [
        Vector(lat1: 0, lon1: 0, lat2: 0.5, lon2: 179.5, metres: 19_936_288.578_965_314),
        Vector(lat1: -30, lon1: 0, lat2: 29.9, lon2: 179.8, metres: 19_989_832.827_609_53),
        Vector(lat1: 0, lon1: 0, lat2: 0, lon2: 180, metres: 20_003_931.458_625_447),
        Vector(lat1: 10, lon1: 0, lat2: -10, lon2: 179.99, metres: 20_003_922.228_149_04),
        Vector(lat1: 0.5, lon1: -179.7, lat2: -0.5, lon2: 0.1, metres: 20_000_239.437_724_67),
    ]

    @Test(arguments: ordinary)
    func matchesReferenceToTheMillimetre(_ v: Vector) {
        let d = Geodesy.distance(fromLatitude: v.lat1, longitude: v.lon1, toLatitude: v.lat2, longitude: v.lon2)
        #expect(abs(d - v.metres) < 0.001, "got \(d), want \(v.metres)")
        let back = Geodesy.distance(fromLatitude: v.lat2, longitude: v.lon2, toLatitude: v.lat1, longitude: v.lon1)
        #expect(abs(back - d) < 0.001, "symmetry")
    }

    @Test(arguments: antipodal)
    func nearlyAntipodalPointsStillGetTheGeodesic(_ v: Vector) {
        let d = Geodesy.distance(fromLatitude: v.lat1, longitude: v.lon1, toLatitude: v.lat2, longitude: v.lon2)
        #expect(abs(d - v.metres) < 0.001, "got \(d), want \(v.metres)")
    }

    @Test func coincidentPointsAreZero() {
        #expect(Geodesy.distance(fromLatitude: 47.5, longitude: 8.5, toLatitude: 47.5, longitude: 8.5) == 0)
        #expect(Geodesy.distance(fromLatitude: 90, longitude: 0, toLatitude: 90, longitude: 120) < 1e-6)
        #expect(Geodesy.distance(fromLatitude: 0, longitude: 180, toLatitude: 0, longitude: -180) < 1e-6)
    }

    @Test func nonFiniteInputIsNaN() {
        #expect(Geodesy.distance(fromLatitude: .nan, longitude: 0, toLatitude: 0, longitude: 0).isNaN)
        #expect(Geodesy.distance(fromLatitude: 0, longitude: 0, toLatitude: 0, longitude: .infinity).isNaN)
    }

    /// Short car steps agree with a haversine on the local radius of curvature within 0.5 %.
    @Test func shortDistancesAgreeWithASphericalApproximation() {
        let lat = 47.0, lon = 8.0
        for (dLat, dLon) in [(0.0001, 0.0), (0.0, 0.0001), (0.0003, 0.0004), (-0.001, 0.002)] {
            let d = Geodesy.distance(fromLatitude: lat, longitude: lon, toLatitude: lat + dLat, longitude: lon + dLon)
            let h = haversine(lat, lon, lat + dLat, lon + dLon, radius: 6_371_008.8)
            #expect(abs(d - h) / h < 0.005, "\(d) vs \(h)")
        }
    }

    @Test func fixAndPointOverloadsAgree() {
        let a = Fix(time: GPSTime(seconds: 1), mode: .threeD, latitude: 48.1, longitude: 11.5)
        let b = Fix(time: GPSTime(seconds: 2), mode: .threeD, latitude: 48.2, longitude: 11.6)
        let d = Geodesy.distance(fromLatitude: 48.1, longitude: 11.5, toLatitude: 48.2, longitude: 11.6)
        #expect(Geodesy.distance(a, b) == d)
        #expect(Geodesy.distance(TripPoint(a), TripPoint(b)) == d)
    }
}

/// Haversine with only the standard library (sin via Taylor series is enough for tiny angles).
func haversine(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double, radius: Double) -> Double {
    func rad(_ d: Double) -> Double { d * .pi / 180 }
    func sinApprox(_ x: Double) -> Double {
        var term = x, sum = x
        for n in stride(from: 3, through: 31, by: 2) {
            term *= -x * x / Double((n - 1) * n)
            sum += term
        }
        return sum
    }
    func cosApprox(_ x: Double) -> Double { sinApprox(x + .pi / 2) }
    let dφ = rad(lat2 - lat1), dλ = rad(lon2 - lon1)
    let a = sinApprox(dφ / 2) * sinApprox(dφ / 2) + cosApprox(rad(lat1)) * cosApprox(rad(lat2)) * sinApprox(dλ / 2) * sinApprox(dλ / 2)
    // For tiny a, asin(√a) ≈ √a (error < 1e-9 relative here).
    return 2 * radius * a.squareRoot()
}
