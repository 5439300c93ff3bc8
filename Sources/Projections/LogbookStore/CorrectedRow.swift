// SPDX-License-Identifier: MIT
internal import Foundation
internal import GRDB
internal import LogbookCore
internal import LogbookRecords

/// A row of `corrected_trips`: one trip number as corrections made it.
///
/// A trip that is only voided or reassigned keeps the daemon's figures. A merged or split
/// trip's are worked out from its parts: distance is the daemon's distance of each recorded
/// trip shared out by the geodesic length of the part's points (so splitting a trip never
/// changes a total), duration runs from the first part's start to the last part's end (a
/// merged trip includes the stop between), the top speed and positions come from the points.
struct CorrectedRow {
    var number: Int64
    var mergedInto: Int64?
    var vehicleID: String?
    var driver: String?
    var state: TripOverview.State = .closed
    var voided = false
    var voidReason: String?
    var startReason = ""
    var endReason: String?
    var startedAt: Int64?
    var endedAt: Int64?
    var distance = 0.0
    var duration = 0.0
    var maxSpeed = 0.0
    var points: Int64 = 0
    var start: (Double, Double)?
    var end: (Double, Double)?
    var mergedFrom: [TripID] = []
    var splitFrom: Int64?
    var parts: [TripCorrections.Part] = []

    static let columns =
        "number, merged_into, vehicle_id, driver, state, voided, void_reason, start_reason, end_reason, started_at, ended_at, distance_m, duration_s, avg_speed_mps, max_speed_mps, points, start_lat, start_lon, end_lat, end_lon, merged_from, split_from, parts"
    static let columnCount = 23

    /// Works the row out from the corrected trip and the recorded trips it is made of.
    init(
        _ trip: TripCorrections.Trip, rows: (Int64) throws -> TripRow?, pointsOf: (Int64) throws -> [TripPoint]
    ) throws {
        number = Int64(bitPattern: trip.number.rawValue)
        mergedInto = trip.mergedInto.map { Int64(bitPattern: $0.rawValue) }
        vehicleID = trip.vehicle
        driver = trip.driver
        voided = trip.voided
        voidReason = trip.voidReason
        splitFrom = trip.splitFrom.map { Int64(bitPattern: $0.rawValue) }
        parts = trip.parts
        var first = true
        var states: [TripOverview.State] = []
        for part in trip.parts {
            guard let row = try rows(Int64(bitPattern: part.source.rawValue)) else { continue }
            let figures = part.isWhole ? PartFigures(row) : PartFigures(row, part, try pointsOf(row.id))
            guard figures.points > 0 || part.isWhole else { continue }
            if first {
                startReason = part.from == nil ? row.startReason : "split"
                startedAt = figures.start
                start = figures.first
                first = false
            }
            endReason = part.until == nil ? row.endReason : "split"
            endedAt = figures.end
            end = figures.last ?? end
            distance += figures.distance
            maxSpeed = max(maxSpeed, figures.maxSpeed)
            points += figures.points
            states.append(row.state)
            // One whole recorded trip keeps the daemon's (monotonic) duration.
            duration = trip.parts.count == 1 && part.isWhole ? row.duration : max(0, Double((endedAt ?? 0) - (startedAt ?? 0)) / 1e9)
        }
        state = states.last == .open ? .open : states.allSatisfy { $0 == .discarded } && !states.isEmpty ? .discarded : .closed
        if state == .open { endReason = nil }
    }

    var averageSpeed: Double { duration > 0 ? distance / duration : 0 }

    var arguments: StatementArguments {
        func real(_ v: Double) -> DatabaseValue { (v.isFinite ? v : 0).databaseValue }
        let partsJSON = JSONValue.array(parts.map { p in
            .array([.number(Double(p.source.rawValue)), .number(p.from.map { Double($0.nanoseconds) }), .number(p.until.map { Double($0.nanoseconds) })])
        }).serialized
        return RowCheck.checked([
            number.databaseValue, mergedInto.databaseValue, vehicleID.databaseValue, driver.databaseValue, state.rawValue.databaseValue,
            (voided ? 1 : 0).databaseValue, voidReason.databaseValue, startReason.databaseValue, endReason.databaseValue,
            startedAt.databaseValue, endedAt.databaseValue, real(distance), real(duration), real(averageSpeed), real(maxSpeed),
            points.databaseValue, start?.0.databaseValue ?? .null, start?.1.databaseValue ?? .null, end?.0.databaseValue ?? .null,
            end?.1.databaseValue ?? .null, mergedFrom.map { String($0.rawValue) }.joined(separator: ",").databaseValue,
            splitFrom.databaseValue, partsJSON.databaseValue,
        ])
    }
}

/// What one part of a corrected trip contributes.
struct PartFigures {
    var start: Int64?
    var end: Int64?
    var distance = 0.0
    var points: Int64 = 0
    var maxSpeed = 0.0
    var first: (Double, Double)?
    var last: (Double, Double)?

    /// A whole recorded trip: the daemon's figures.
    init(_ row: TripRow) {
        start = row.startedAt
        end = row.state == .open ? row.lastPointAt : row.endedAt
        distance = row.distance
        points = row.points
        maxSpeed = row.maxSpeed
        if let la = row.startLatitude, let lo = row.startLongitude { first = (la, lo) }
        if let la = row.endLatitude, let lo = row.endLongitude { last = (la, lo) }
    }

    /// The points of `row` inside `part`, with its share of the daemon's distance
    /// (``TripPartFigures``: the same rule the uplink applies).
    init(_ row: TripRow, _ part: TripCorrections.Part, _ all: [TripPoint]) {
        let f = TripPartFigures(
            part: part, points: all, recordedDistance: row.distance, recordedStart: row.startedAt.map(GPSTime.init(nanoseconds:)),
            recordedEnd: row.state == .open ? nil : row.endedAt.map(GPSTime.init(nanoseconds:)))
        start = f.start?.nanoseconds
        end = f.end?.nanoseconds
        distance = f.distance
        points = Int64(f.points)
        maxSpeed = f.maxSpeed
        first = f.first.map { ($0.latitude, $0.longitude) }
        last = f.last.map { ($0.latitude, $0.longitude) }
    }
}
