// SPDX-License-Identifier: MIT
public import LogbookCore
public import LogbookRecords

/// The yearly mileage report (Fahrtenbuch / IRS log): one row per trip with times, the
/// odometer (a true reading at the trip's start or end, else estimated), places, distance and classification; totals per class and per month; and the
/// journal position it was made from, so `logbook verify` can check it against the journal.
public struct MileageReport: Sendable {
    /// Where in the journal the report was made.
    public struct JournalSeal: Sendable, Hashable {
        /// The last record the index had read, and the chain head after it.
        public var sequence: UInt64
        public var chainHead: [UInt8]
        /// The newest signed checkpoint at or before it.
        public var checkpointSequence: UInt64?
        public init(sequence: UInt64, chainHead: [UInt8], checkpointSequence: UInt64?) {
            self.sequence = sequence
            self.chainHead = chainHead
            self.checkpointSequence = checkpointSequence
        }
    }

    public struct Row: Sendable {
        public var trip: TripOverview
        public var startOdometer: Double?
        public var endOdometer: Double?
        /// Whether each figure is a true reading or an estimate (``OdometerSource``).
        public var startOdometerSource: OdometerSource?
        public var endOdometerSource: OdometerSource?
        public var classification: TripClassification?
        /// Who drove (the trip's driver, else its vehicle's usual one).
        public var driver: String?
        /// Every change made after the trip ended (classifications and corrections), oldest first.
        public var changes: [Change] = []
        public var km: Double { trip.distance / 1000 }
        public var tripClass: String { trip.voided ? "void" : classification?.tripClass ?? "unclassified" }
        /// `recorded`, `corrected` (merged, split, reassigned) or `void`.
        public var status: String { trip.voided ? "void" : trip.corrected ? "corrected" : "recorded" }
        /// A change made more than ``MileageReport/lateAfter`` after the trip.
        public var late: Bool { changes.contains(where: \.late) }
    }

    /// A change to a trip after it ended: when it was made and how long after.
    public struct Change: Sendable {
        public var entry: RecordedEntry
        /// Seconds between the trip's end and the change.
        public var after: Double
        public var late: Bool { after > MileageReport.lateAfter }
    }

    /// A change made later than this after its trip is flagged (a tax office asks whether the
    /// log was kept promptly): 7 days.
    public static let lateAfter: Double = 7 * 86_400

    /// The classes in report order.
    public static let classes = TripClassRecord.classes + ["unclassified"]

    public var year: Int
    public var vehicle: String?
    /// Oldest first.
    public var rows: [Row]
    public var calibrations: [String: OdometerCalibration]
    public var seal: JournalSeal
    /// km per class.
    public var totals: [String: Double]
    /// month (`2026-01`) → class → km.
    public var months: [String: [String: Double]]

    /// - Parameters:
    ///   - trips: the year's trips (discarded ones are left out here; voided ones are listed
    ///     as void and not counted).
    ///   - calibrations: per vehicle id, for the odometer estimates.
    ///   - histories: every trip's changes (``Change``), by trip number.
    public init(
        year: Int, vehicle: String?, trips: [TripOverview], garage: Garage, calibrations: [String: OdometerCalibration], seal: JournalSeal,
        histories: [TripID: [RecordedEntry]] = [:]
    ) {
        self.year = year
        self.vehicle = vehicle
        self.calibrations = calibrations
        self.seal = seal
        var rows: [Row] = []
        var totals: [String: Double] = [:]
        var months: [String: [String: Double]] = [:]
        let readings = Dictionary(grouping: garage.readings.filter { !$0.voided }, by: \.vehicle)
        for trip in trips.sorted(by: { $0.id < $1.id }) where !trip.discarded {
            var row = Row(trip: trip, classification: garage.classifications[trip.id])
            row.driver = trip.driver ?? trip.vehicleID.flatMap { garage.vehicle($0)?.record.driver }
            if let end = trip.endedAt {
                row.changes = (histories[trip.id] ?? []).compactMap { e in
                    e.recordedAt.flatMap { $0 > end ? Change(entry: e, after: $0.seconds(since: end)) : nil }
                }
            }
            if let v = trip.vehicleID {
                Self.odometer(&row, readings: readings[v] ?? [], calibration: calibrations[v])
            }
            rows.append(row)
            guard !trip.voided else { continue }
            totals[row.tripClass, default: 0] += row.km
            if let start = trip.startedAt {
                months[String(ISO8601.format(start).prefix(7)), default: [:]][row.tripClass, default: 0] += row.km
            }
        }
        self.rows = rows
        self.totals = totals
        self.months = months
    }

    /// The UTC year span `[start, end)` of `year`.
    public static func span(of year: Int) -> (GPSTime, GPSTime) {
        let day: Int64 = 86_400_000_000_000
        return (GPSTime(nanoseconds: CivilDate(year: year, month: 1, day: 1).daysSinceEpoch * day),
                GPSTime(nanoseconds: CivilDate(year: year + 1, month: 1, day: 1).daysSinceEpoch * day))
    }

    static func km(_ v: Double?) -> String { v.map { NumberText.fixed($0, places: 1) } ?? "" }

    static func place(_ name: String?, _ p: TripOverview.Position?) -> String {
        if let name { return name }
        guard let p else { return "" }
        return NumberText.fixed(p.latitude, places: 5) + " " + NumberText.fixed(p.longitude, places: 5)
    }

    /// `2026-03-01 08:15` (UTC) or empty.
    static func time(_ t: GPSTime?) -> (String, String) {
        guard let t else { return ("", "") }
        let text = ISO8601.format(t)
        return (String(text.prefix(10)), String(text.dropFirst(11).prefix(5)))
    }

    /// How an odometer value was obtained, for the odometer columns' note.
    func odometerNote(_ vehicle: String?) -> String {
        guard let vehicle, let c = calibrations[vehicle] else { return "" }
        if let u = c.uncertainty {
            return "estimate: reading + GPS km × \(NumberText.fixed(c.factor, places: 4)) ± \(NumberText.fixed(u, places: 4))"
        }
        return c.stretches == 0 ? "estimate: reading + GPS km (uncalibrated)" : "estimate: reading + GPS km × \(NumberText.fixed(c.factor, places: 4))"
    }
}
