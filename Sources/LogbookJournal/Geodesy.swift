// SPDX-License-Identifier: MIT
import LogbookCore
#if canImport(Glibc)
    import Glibc
#endif

/// Great-circle distance for the summaries the journal itself must compute (a trip closed by
/// recovery). The trip engine's own, more exact, summaries are stored as given.
enum Geodesy {
    static func haversine(_ a: TripPoint, _ b: TripPoint) -> Double {
        guard a.latitude.isFinite, a.longitude.isFinite, b.latitude.isFinite, b.longitude.isFinite else { return 0 }
        let r = 6_371_008.8
        let rad = Double.pi / 180
        let dLat = (b.latitude - a.latitude) * rad
        let dLon = (b.longitude - a.longitude) * rad
        let h = sin(dLat / 2) * sin(dLat / 2)
            + cos(a.latitude * rad) * cos(b.latitude * rad) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * r * asin(min(1, sqrt(h)))
    }
}
