// SPDX-License-Identifier: MIT
import LogbookCore

extension MileageReport {
    /// Where a trip's start or end odometer figure comes from.
    public enum OdometerSource: Sendable, Equatable {
        /// A true odometer reading taken at that moment: the OBD adapter's (origin `obd`, at
        /// engine start and stop) or a person's (`cli`, `web`, …).
        case reading(origin: String)
        /// Estimated from the nearest reading and the GPS distance since (``OdometerCalibration``).
        case estimate
    }

    /// How far a reading may lie from a trip's start or end to be the odometer there: the OBD
    /// adapter reads it within seconds of the engine starting or stopping.
    public static let readingWindow: Double = 300

    /// The true odometer at a trip's start and end, when a reading was taken then: the
    /// reading nearest to each within ``readingWindow`` (one reading serves one end only).
    static func trueOdometer(_ trip: TripOverview, readings: [OdometerReading]) -> (start: OdometerReading?, end: OdometerReading?) {
        func nearest(_ t: GPSTime?, except: String?) -> OdometerReading? {
            guard let t else { return nil }
            return readings.filter { $0.id != except && abs($0.at.seconds(since: t)) <= readingWindow }
                .min { abs($0.at.seconds(since: t)) < abs($1.at.seconds(since: t)) }
        }
        let start = nearest(trip.startedAt, except: nil)
        return (start, nearest(trip.endedAt, except: start?.id))
    }

    /// The odometer figures of `row`: a true reading beats an estimate; an end without one is
    /// the start plus the calibrated GPS distance, a start without one the calibrated estimate
    /// (or the true end less the distance).
    static func odometer(_ row: inout Row, readings: [OdometerReading], calibration: OdometerCalibration?) {
        let factor = calibration?.factor ?? 1
        let (startReading, endReading) = trueOdometer(row.trip, readings: readings)
        if let r = startReading {
            row.startOdometer = r.odometerKm
            row.startOdometerSource = .reading(origin: r.origin ?? "?")
        } else if let c = calibration, let start = row.trip.startedAt, let at = c.estimate(at: start) {
            row.startOdometer = at
            row.startOdometerSource = .estimate
        }
        if let r = endReading {
            row.endOdometer = r.odometerKm
            row.endOdometerSource = .reading(origin: r.origin ?? "?")
            if row.startOdometer == nil {
                row.startOdometer = max(r.odometerKm - factor * row.km, 0)
                row.startOdometerSource = .estimate
            }
        } else if let start = row.startOdometer {
            row.endOdometer = start + factor * row.km
            row.endOdometerSource = .estimate
        }
    }

    /// The `odometer_source` column: `reading (obd)` (or the origin of a person's reading),
    /// the estimate's note, or both ends' when they differ (`start: …; end: …`).
    func odometerSourceText(_ row: Row) -> String {
        func text(_ s: OdometerSource?) -> String {
            switch s {
            case .reading(let origin): "reading (\(origin))"
            case .estimate: odometerNote(row.trip.vehicleID)
            case nil: ""
            }
        }
        guard row.startOdometerSource != nil || row.endOdometerSource != nil else { return "" }
        if row.startOdometerSource == row.endOdometerSource { return text(row.startOdometerSource) }
        return "start: \(text(row.startOdometerSource)); end: \(text(row.endOdometerSource))"
    }
}
