// SPDX-License-Identifier: MIT
internal import Foundation
internal import GRDB
internal import LogbookCore

/// A row of `trips` while the projector works on it.
struct TripRow: Sendable {
    var id: Int64
    var vehicleID: String?
    var state: TripOverview.State
    var startSequence: Int64
    var lastSequence: Int64
    var startReason: String
    var endReason: String?
    var startedAt: Int64?
    var endedAt: Int64?
    var distance: Double = 0
    var duration: Double = 0
    var averageSpeed: Double = 0
    var maxSpeed: Double = 0
    var points: Int64 = 0
    var firstPointAt: Int64?
    var lastPointAt: Int64?
    var startLatitude: Double?
    var startLongitude: Double?
    var endLatitude: Double?
    var endLongitude: Double?
    /// Geodesic length over the stored points (the open trip's distance; kept after the end).
    var trackLength: Double = 0
    /// Metres per degree in the last point's latitude band (a cache, not stored).
    private var scale: (band: Double, perDegree: (north: Double, east: Double)) = (.nan, (0, 0))

    static let columns =
        "id, vehicle_id, state, start_seq, last_seq, start_reason, end_reason, started_at, ended_at, distance_m, duration_s, avg_speed_mps, max_speed_mps, points, first_point_at, last_point_at, start_lat, start_lon, end_lat, end_lon, track_m"

    init(id: Int64, vehicleID: String?, startSequence: Int64, startReason: String, startedAt: Int64?) {
        self.id = id
        self.vehicleID = vehicleID
        self.state = .open
        self.startSequence = startSequence
        self.lastSequence = startSequence
        self.startReason = startReason
        self.startedAt = startedAt
    }

    init(row: Row) {
        id = row[0]
        vehicleID = row[1]
        state = TripOverview.State(rawValue: row[2]) ?? .closed
        startSequence = row[3]
        lastSequence = row[4]
        startReason = row[5]
        endReason = row[6]
        startedAt = row[7]
        endedAt = row[8]
        distance = row[9]
        duration = row[10]
        averageSpeed = row[11]
        maxSpeed = row[12]
        points = row[13]
        firstPointAt = row[14]
        lastPointAt = row[15]
        startLatitude = row[16]
        startLongitude = row[17]
        endLatitude = row[18]
        endLongitude = row[19]
        trackLength = row[20]
    }

    /// The columns' values, then their ``RowCheck``.
    var arguments: StatementArguments {
        func real(_ v: Double) -> DatabaseValue { (v.isFinite ? v : 0).databaseValue }
        return RowCheck.checked([
            id.databaseValue, vehicleID.databaseValue, state.rawValue.databaseValue, startSequence.databaseValue,
            lastSequence.databaseValue, startReason.databaseValue, endReason.databaseValue, startedAt.databaseValue,
            endedAt.databaseValue, real(distance), real(duration), real(averageSpeed), real(maxSpeed), points.databaseValue,
            firstPointAt.databaseValue, lastPointAt.databaseValue, startLatitude.databaseValue, startLongitude.databaseValue,
            endLatitude.databaseValue, endLongitude.databaseValue, real(trackLength),
        ])
    }

    /// Reads a row selected as `SELECT \(columns), crc`, checking it.
    static func checked(_ row: Row) throws -> TripRow {
        try RowCheck.verify(row, "trip row \(row[0] as Int64? ?? 0)")
        return TripRow(row: row)
    }

    /// Folds a stored point into the running figures of an open trip.
    mutating func add(_ p: StoredPoint) {
        let lat = p.latitudeDegrees, lon = p.longitudeDegrees
        if points == 0 {
            firstPointAt = p.time
            if startedAt == nil { startedAt = p.time }
            startLatitude = lat.isFinite ? lat : nil
            startLongitude = lon.isFinite ? lon : nil
        } else if let la = endLatitude, let lo = endLongitude {
            // A point without a position adds nothing. The scale depends only on the 0.01°
            // band of latitude (~1 km), so the result does not depend on batch boundaries.
            let band = (la * 100).rounded()
            if band != scale.band { scale = (band, Self.metresPerDegree(at: band / 100)) }
            let step = Self.step(la, lo, lat, lon, scale.perDegree)
            if step.isFinite { trackLength += step }
        }
        if lat.isFinite, lon.isFinite {
            endLatitude = lat
            endLongitude = lon
        }
        lastPointAt = p.time
        if let s = p.speedMetersPerSecond { maxSpeed = max(maxSpeed, s) }
        points += 1
    }

    /// Metres per degree of latitude and of longitude on the WGS-84 ellipsoid at `latitude`
    /// (the meridian and prime-vertical radii).
    static func metresPerDegree(at latitude: Double) -> (north: Double, east: Double) {
        let a = Geodesy.semiMajorAxis, f = Geodesy.flattening, e2 = f * (2 - f)
        let phi = latitude * .pi / 180
        let s = sin(phi)
        let w = 1 - e2 * s * s
        let n = a / w.squareRoot(), m = a * (1 - e2) / (w * w.squareRoot())
        return (m * .pi / 180, n * cos(phi) * .pi / 180)
    }

    /// The distance between two close points, on a plane tangent to the ellipsoid near them:
    /// within 0.1 % of the geodesic for the 1 s steps of a trip, at a fraction of Vincenty's
    /// cost. Only open trips show it; a trip's end record brings the daemon's own distance.
    static func step(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double, _ scale: (north: Double, east: Double)) -> Double {
        var dLon = lon2 - lon1
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        let north = (lat2 - lat1) * scale.north, east = dLon * scale.east
        return (north * north + east * east).squareRoot()
    }

    /// An open trip's figures come from its points: the daemon's own arrive with the end.
    /// Call after adding points.
    mutating func refreshOpenFigures() {
        guard state == .open else { return }
        distance = trackLength
        if let start = startedAt, let last = lastPointAt {
            duration = max(0, Double(last - start) / 1e9)
        }
        averageSpeed = duration > 0 ? distance / duration : 0
    }

    /// The overview the catalog hands out.
    var overview: TripOverview {
        func position(_ lat: Double?, _ lon: Double?) -> TripOverview.Position? {
            guard let lat, let lon else { return nil }
            return TripOverview.Position(latitude: lat, longitude: lon)
        }
        return TripOverview(
            id: TripID(UInt64(bitPattern: id)), vehicleID: vehicleID, startedAt: startedAt.map(GPSTime.init(nanoseconds:)),
            endedAt: state == .open ? nil : endedAt.map(GPSTime.init(nanoseconds:)),
            startReason: startReason, endReason: endReason, distance: distance, duration: duration,
            averageSpeed: averageSpeed, maxSpeed: maxSpeed, pointCount: Int(points),
            start: position(startLatitude, startLongitude), end: position(endLatitude, endLongitude), state: state)
    }
}
