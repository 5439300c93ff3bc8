// SPDX-License-Identifier: MIT
internal import LogbookCore

#if canImport(Glibc)
    internal import Glibc
#endif

/// The nearest populated place to a position, and how far it is.
public struct NearestPlace: Sendable, Hashable {
    public var place: PopulatedPlace
    /// WGS-84 geodesic distance, metres.
    public var distance: Double
}

extension PlaceBundle {
    /// The populated place nearest to a position by the WGS-84 geodesic, or nil for an empty
    /// bundle, a non-finite position, or nothing within `limit` metres (a limit also ends the
    /// search early far from any place, e.g. at sea).
    ///
    /// Searches rings of 1° grid cells outward from the position's cell, ranking by the
    /// spherical (haversine) distance, and stops once no unsearched cell can hold anything
    /// within the ellipsoid's margin of the best; the few candidates inside that margin are
    /// then ranked by the geodesic itself.
    public func nearest(latitude: Double, longitude: Double, within limit: Double = .infinity) -> NearestPlace? {
        guard latitude.isFinite, longitude.isFinite, count > 0 else { return nil }
        let lat = min(90, max(-90, latitude))
        let lon = longitude - 360 * ((longitude + 180) / 360).rounded(.down)
        let φ = lat * .pi / 180, cosφ = cos(φ)
        let (row, column) = cell(latitude: lat, longitude: lon)
        let columns = layout.longitudeCells, rows = layout.latitudeCells
        var best = Double.infinity
        var candidates: [(index: Int, spherical: Double)] = []
        var ring = 0
        while true {
            visitRing(ring, row: row, column: column, rows: rows, columns: columns) { start, end in
                for i in start..<end {
                    let (plat, plon) = coordinates(i)
                    let d = Self.haversine(φ, cosφ, lon, plat, plon)
                    if d <= Self.margin(best) {
                        candidates.append((i, d))
                        if d < best { best = d }
                    }
                }
            }
            let outside = outsideBound(ring, lat: lat, lon: lon, cosφ: cosφ, row: row, column: column)
            if Self.margin(best) < outside || Self.margin(limit) < outside || ring >= rows {
                break
            }
            ring += 1
        }
        var winner: NearestPlace?
        for c in candidates where c.spherical <= Self.margin(best) {
            let (plat, plon) = coordinates(c.index)
            let d = Geodesy.distance(fromLatitude: lat, longitude: lon, toLatitude: plat, longitude: plon)
            if d <= limit, d < winner?.distance ?? .infinity { winner = NearestPlace(place: place(at: c.index), distance: d) }
        }
        return winner
    }

    /// The spherical distance within which a place may still be geodesically nearer than the
    /// best: the ellipsoid differs from the sphere by under 0.6 %.
    @inline(__always) static func margin(_ best: Double) -> Double { best * 1.007 + 1 }

    static let radius = 6_371_008.8

    @inline(__always) static func haversine(_ φ1: Double, _ cosφ1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let φ2 = lat2 * .pi / 180
        let dφ = φ2 - φ1, dλ = (lon2 - lon1) * .pi / 180
        let a = sin(dφ / 2) * sin(dφ / 2) + cosφ1 * cos(φ2) * sin(dλ / 2) * sin(dλ / 2)
        return 2 * radius * asin(min(1, a.squareRoot()))
    }

    /// Calls `body` with the row range of each cell at Chebyshev distance `ring` from
    /// (`row`, `column`); longitude wraps, latitude does not.
    private func visitRing(_ ring: Int, row: Int, column: Int, rows: Int, columns: Int, _ body: (Int, Int) -> Void) {
        func visit(_ r: Int, _ dc: Int) {
            guard r >= 0, r < rows else { return }
            let c = ((column + dc) % columns + columns) % columns
            let cell = r * columns + c
            let start = cellStart(cell), end = cellStart(cell + 1)
            if start < end { body(start, end) }
        }
        if ring == 0 { return visit(row, 0) }
        let span = min(ring, columns / 2)
        for dc in -span...span where ring < columns / 2 || dc != -span {
            visit(row - ring, dc)
            visit(row + ring, dc)
        }
        if ring <= columns / 2 {
            for dr in (-ring + 1)..<ring {
                visit(row + dr, -ring)
                if ring < columns / 2 { visit(row + dr, ring) }
            }
        }
    }

    /// A lower bound on the spherical distance to anything outside the rings searched so far.
    private func outsideBound(_ ring: Int, lat: Double, lon: Double, cosφ: Double, row: Int, column: Int) -> Double {
        let south = Double(row - ring) - 90, north = Double(row + ring + 1) - 90
        var bound = Double.infinity
        if south > -90 { bound = min(bound, (lat - south) * .pi / 180 * Self.radius) }
        if north < 90 { bound = min(bound, (north - lat) * .pi / 180 * Self.radius) }
        if 2 * ring + 1 < layout.longitudeCells {
            let west = Double(column - ring) - 180, east = Double(column + ring + 1) - 180
            let dλ = min(lon - west, east - lon)
            // The nearest point of a meridian Δλ away: sin d = cos φ · sin Δλ (the pole beyond 90°).
            bound = min(bound, asin(min(1, cosφ * sin(min(dλ, 90) * .pi / 180))) * Self.radius)
        }
        return bound
    }
}
