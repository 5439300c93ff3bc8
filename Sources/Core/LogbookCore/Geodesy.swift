// SPDX-License-Identifier: MIT
// Trigonometry comes from the C library: the Swift standard library has no sin/cos/atan2.
// libc is part of every platform Swift runs on, so this keeps the core free of any library
// that has to be installed. This is the only file in LogbookCore that imports it.
#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// Distances on the WGS-84 ellipsoid.
///
/// ``distance(fromLatitude:longitude:toLatitude:longitude:)`` solves the inverse geodesic
/// problem with Vincenty's iteration (T. Vincenty, Survey Review 23(176), 1975), accurate to
/// well under 1 mm. Vincenty's iteration does not converge for nearly antipodal points; there
/// the distance is found as the minimum over midpoints M of `s(A, M) + s(M, B)` (the triangle
/// inequality is tight exactly when M lies on the geodesic), which needs only the convergent
/// half-length legs. Car trips never come near that case, but the function must never hang
/// or return garbage.
public enum Geodesy {
    /// WGS-84 semi-major axis, metres.
    public static let semiMajorAxis = 6_378_137.0
    /// WGS-84 flattening.
    public static let flattening = 1 / 298.257_223_563
    /// WGS-84 semi-minor axis, metres.
    public static let semiMinorAxis = semiMajorAxis * (1 - flattening)

    /// The geodesic distance in metres between two points given in degrees (WGS-84).
    ///
    /// Non-finite input gives NaN.
    public static func distance(
        fromLatitude lat1: Double, longitude lon1: Double,
        toLatitude lat2: Double, longitude lon2: Double
    ) -> Double {
        guard lat1.isFinite, lon1.isFinite, lat2.isFinite, lon2.isFinite else { return .nan }
        let φ1 = radians(clampLatitude(lat1)), φ2 = radians(clampLatitude(lat2))
        let l = radians(normalizedLongitudeDelta(lon2 - lon1))
        if let s = vincenty(φ1, φ2, l) { return s }
        return antipodalFallback(φ1, φ2, l)
    }

    /// The geodesic distance in metres between two fixes.
    public static func distance(_ a: Fix, _ b: Fix) -> Double {
        distance(fromLatitude: a.latitude, longitude: a.longitude, toLatitude: b.latitude, longitude: b.longitude)
    }

    /// The geodesic distance in metres between two recorded points.
    public static func distance(_ a: TripPoint, _ b: TripPoint) -> Double {
        distance(fromLatitude: a.latitude, longitude: a.longitude, toLatitude: b.latitude, longitude: b.longitude)
    }

    // MARK: - Vincenty

    /// Vincenty's inverse formula; nil when λ does not converge (nearly antipodal points).
    static func vincenty(_ φ1: Double, _ φ2: Double, _ l: Double) -> Double? {
        let a = semiMajorAxis, b = semiMinorAxis, f = flattening
        let tanU1 = (1 - f) * tan(φ1), tanU2 = (1 - f) * tan(φ2)
        let cosU1 = 1 / (1 + tanU1 * tanU1).squareRoot(), sinU1 = tanU1 * cosU1
        let cosU2 = 1 / (1 + tanU2 * tanU2).squareRoot(), sinU2 = tanU2 * cosU2

        var λ = l
        var sinσ = 0.0, cosσ = 0.0, σ = 0.0, cosSqα = 0.0, cos2σm = 0.0
        var converged = false
        for _ in 0..<200 {
            let sinλ = sin(λ), cosλ = cos(λ)
            let t1 = cosU2 * sinλ
            let t2 = cosU1 * sinU2 - sinU1 * cosU2 * cosλ
            let sinSqσ = t1 * t1 + t2 * t2
            if sinSqσ < 1e-30 {
                // Coincident points, or a pole-to-pole line: σ is 0 or π.
                cosσ = sinU1 * sinU2 + cosU1 * cosU2 * cosλ
                if cosσ > 0 { return 0 }
                return nil
            }
            sinσ = sinSqσ.squareRoot()
            cosσ = sinU1 * sinU2 + cosU1 * cosU2 * cosλ
            σ = atan2(sinσ, cosσ)
            let sinα = cosU1 * cosU2 * sinλ / sinσ
            cosSqα = 1 - sinα * sinα
            // On the equator cosSqα = 0 and cos2σm is taken as 0 (Vincenty's note).
            cos2σm = cosSqα != 0 ? cosσ - 2 * sinU1 * sinU2 / cosSqα : 0
            let c = f / 16 * cosSqα * (4 + f * (4 - 3 * cosSqα))
            let previous = λ
            λ = l + (1 - c) * f * sinα
                * (σ + c * sinσ * (cos2σm + c * cosσ * (-1 + 2 * cos2σm * cos2σm)))
            if abs(λ) > .pi + 1e-9 { return nil }  // diverging: antipodal region
            if abs(λ - previous) <= 1e-12 {
                converged = true
                break
            }
        }
        guard converged else { return nil }

        let uSq = cosSqα * (a * a - b * b) / (b * b)
        let bigA = 1 + uSq / 16_384 * (4_096 + uSq * (-768 + uSq * (320 - 175 * uSq)))
        let bigB = uSq / 1_024 * (256 + uSq * (-128 + uSq * (74 - 47 * uSq)))
        let c2 = cos2σm * cos2σm
        let Δσ = bigB * sinσ
            * (cos2σm + bigB / 4
                * (cosσ * (-1 + 2 * c2) - bigB / 6 * cos2σm * (-3 + 4 * sinσ * sinσ) * (-3 + 4 * c2)))
        let s = b * bigA * (σ - Δσ)
        return s.isFinite ? s : nil
    }

    // MARK: - Nearly antipodal fallback

    /// Minimises `s(A, M) + s(M, B)` over midpoints M on the two meridians halfway between A
    /// and B (longitude is monotonic along a geodesic, so the shortest one crosses one of them).
    static func antipodalFallback(_ φ1: Double, _ φ2: Double, _ l: Double) -> Double {
        func total(_ φm: Double, _ λm: Double) -> Double {
            let d1 = vincenty(φ1, φm, λm) ?? .infinity
            let d2 = vincenty(φm, φ2, normalizedRadians(l - λm)) ?? .infinity
            return d1 + d2
        }
        var best = Double.infinity
        for λm in [l / 2, normalizedRadians(l / 2 + .pi)] {
            // Coarse scan at 1°, then golden-section refinement around the best sample.
            var bestφ = 0.0, bestValue = Double.infinity
            for step in -90...90 {
                let φ = radians(Double(step))
                let v = total(φ, λm)
                if v < bestValue { bestValue = v; bestφ = φ }
            }
            var lo = max(bestφ - radians(1), -.pi / 2), hi = min(bestφ + radians(1), .pi / 2)
            let g = (5.0.squareRoot() - 1) / 2
            var x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo)
            var f1 = total(x1, λm), f2 = total(x2, λm)
            for _ in 0..<80 where hi - lo > 1e-13 {
                if f1 < f2 {
                    hi = x2; x2 = x1; f2 = f1; x1 = hi - g * (hi - lo); f1 = total(x1, λm)
                } else {
                    lo = x1; x1 = x2; f1 = f2; x2 = lo + g * (hi - lo); f2 = total(x2, λm)
                }
            }
            best = min(best, bestValue, f1, f2)
        }
        // The half meridian bounds every geodesic between any two points.
        return best.isFinite ? best : Double.pi * semiMajorAxis
    }

    // MARK: - Helpers

    static func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }

    static func clampLatitude(_ lat: Double) -> Double { min(max(lat, -90), 90) }

    /// A longitude difference in degrees folded into (-180, 180].
    static func normalizedLongitudeDelta(_ d: Double) -> Double {
        var x = d.truncatingRemainder(dividingBy: 360)
        if x > 180 { x -= 360 } else if x <= -180 { x += 360 }
        return x
    }

    /// An angle in radians folded into (-π, π].
    static func normalizedRadians(_ x: Double) -> Double {
        var y = x.truncatingRemainder(dividingBy: 2 * .pi)
        if y > .pi { y -= 2 * .pi } else if y <= -.pi { y += 2 * .pi }
        return y
    }

    // MARK: - Local plane

    /// Metres north and east from `a` to `b` on the local tangent plane (equirectangular,
    /// WGS-84 radii of curvature at `a`): for comparing short steps with a velocity, where a
    /// few millimetres per kilometre do not matter.
    public static func localOffset(from a: Fix, to b: Fix) -> (north: Double, east: Double) {
        let φ = radians(clampLatitude(a.latitude))
        let e2 = flattening * (2 - flattening)
        let w = (1 - e2 * sin(φ) * sin(φ)).squareRoot()
        let meridian = semiMajorAxis * (1 - e2) / (w * w * w)
        let prime = semiMajorAxis / w
        return (radians(b.latitude - a.latitude) * meridian,
                radians(normalizedLongitudeDelta(b.longitude - a.longitude)) * prime * cos(φ))
    }

    /// The velocity (m/s north and east) of a speed over ground along a course in degrees true.
    public static func velocity(speed: Double, track: Double) -> (north: Double, east: Double) {
        let t = radians(track)
        return (speed * cos(t), speed * sin(t))
    }
}
