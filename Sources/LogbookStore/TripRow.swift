// SPDX-License-Identifier: MIT
internal import GRDB
internal import LogbookCore

/// A row of `trips` while the projector works on it.
struct TripRow: Sendable, Hashable {
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
        func real(_ v: Double) -> Double { v.isFinite ? v : 0 }
        let values: [(any DatabaseValueConvertible)?] = [
            id, vehicleID, state.rawValue, startSequence, lastSequence, startReason, endReason, startedAt, endedAt,
            real(distance), real(duration), real(averageSpeed), real(maxSpeed), points, firstPointAt, lastPointAt, startLatitude,
            startLongitude, endLatitude, endLongitude, real(trackLength),
        ]
        return StatementArguments(values + [RowCheck.crc(values)])
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
            // Same geodesic as the daemon; a point without a position adds nothing.
            let step = Geodesy.distance(fromLatitude: la, longitude: lo, toLatitude: lat, longitude: lon)
            if step.isFinite { trackLength += step }
        }
        if lat.isFinite, lon.isFinite {
            endLatitude = lat
            endLongitude = lon
        }
        lastPointAt = p.time
        if let s = p.speedMetersPerSecond { maxSpeed = max(maxSpeed, s) }
        points += 1
        if state == .open { refreshOpenFigures() }
    }

    /// An open trip's figures come from its points: the daemon's own arrive with the end.
    mutating func refreshOpenFigures() {
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
