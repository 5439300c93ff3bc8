// SPDX-License-Identifier: MIT
// cos() from the C library, as LogbookCore's Geodesy does: libc is on every platform, and the
// standard library has no trigonometry.
#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#elseif canImport(Darwin)
    internal import Darwin
#endif
import LogbookCore

/// Latitude and longitude to picture pixels: an equirectangular projection about the route's
/// middle (true to scale at a trip's size), north up, fitted into a frame with a margin.
struct MapProjection {
    let latitude0: Double
    let longitude0: Double
    let cosLatitude: Double
    /// Ground metres per pixel.
    let metresPerPixel: Double
    let centreX: Double
    let centreY: Double

    private static let metresPerDegree = 111_320.0

    /// Fits `points` into `frame` less `margin`; nil without points.
    init?(fitting points: [TripPoint], into frame: PictureLayout.Frame, margin: Double) {
        guard let first = points.first else { return nil }
        var (minLat, maxLat, minLon, maxLon) = (first.latitude, first.latitude, first.longitude, first.longitude)
        for p in points {
            minLat = min(minLat, p.latitude)
            maxLat = max(maxLat, p.latitude)
            minLon = min(minLon, p.longitude)
            maxLon = max(maxLon, p.longitude)
        }
        latitude0 = (minLat + maxLat) / 2
        longitude0 = (minLon + maxLon) / 2
        cosLatitude = max(cos(latitude0 * .pi / 180), 0.01)
        let widthMetres = (maxLon - minLon) * Self.metresPerDegree * cosLatitude
        let heightMetres = (maxLat - minLat) * Self.metresPerDegree
        // At least 200 m across, so a parked trip is not blown up to fill the frame.
        let fit = max(widthMetres / (frame.width - 2 * margin), heightMetres / (frame.height - 2 * margin))
        metresPerPixel = max(fit, 200 / (frame.width - 2 * margin))
        centreX = frame.x + frame.width / 2
        centreY = frame.y + frame.height / 2
    }

    func point(latitude: Double, longitude: Double) -> PicturePoint {
        PicturePoint(
            x: centreX + (longitude - longitude0) * Self.metresPerDegree * cosLatitude / metresPerPixel,
            y: centreY - (latitude - latitude0) * Self.metresPerDegree / metresPerPixel)
    }

    func point(_ p: TripPoint) -> PicturePoint { point(latitude: p.latitude, longitude: p.longitude) }

    /// The latitude at pixel row `y` and the longitude at pixel column `x`.
    func latitude(atY y: Double) -> Double { latitude0 + (centreY - y) * metresPerPixel / Self.metresPerDegree }
    func longitude(atX x: Double) -> Double {
        longitude0 + (x - centreX) * metresPerPixel / (Self.metresPerDegree * cosLatitude)
    }
}
