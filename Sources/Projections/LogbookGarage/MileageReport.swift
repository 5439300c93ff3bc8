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
        /// The vehicle's registration (number plate), when its record has one.
        public var registration: String?
        /// The allowance in force for the trip's class on its local date, and what it pays.
        public var rate: ReimbursementRate?
        public var reimbursement: Double? { rate.map { $0.amount(km: km) } }
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
    /// month (`2026-01`, local) → class → km.
    public var months: [String: [String: Double]]
    /// The zone of the report's dates and times (its year runs from local 1 January).
    public var zone: TimeZoneRules
    /// Reimbursement per class, then per currency.
    public var reimbursementTotals: [String: [String: Double]]
    /// The rates the rows used, oldest first.
    public var ratesUsed: [ReimbursementRate]

    /// - Parameters:
    ///   - trips: the year's trips (discarded ones are left out here; voided ones are listed
    ///     as void and not counted).
    ///   - calibrations: per vehicle id, for the odometer estimates.
    ///   - histories: every trip's changes (``Change``), by trip number.
    public init(
        year: Int, vehicle: String?, trips: [TripOverview], garage: Garage, calibrations: [String: OdometerCalibration], seal: JournalSeal,
        histories: [TripID: [RecordedEntry]] = [:], zone: TimeZoneRules = .utc, rates: [ReimbursementRate] = []
    ) {
        self.zone = zone
        self.year = year
        self.vehicle = vehicle
        self.calibrations = calibrations
        self.seal = seal
        var rows: [Row] = []
        var totals: [String: Double] = [:]
        var months: [String: [String: Double]] = [:]
        var money: [String: [String: Double]] = [:]
        var used: Set<ReimbursementRate> = []
        let readings = Dictionary(grouping: garage.readings.filter { !$0.voided }, by: \.vehicle)
        for trip in trips.sorted(by: { $0.id < $1.id }) where !trip.discarded {
            var row = Row(trip: trip, classification: garage.classifications[trip.id])
            row.driver = trip.driver ?? trip.vehicleID.flatMap { garage.vehicle($0)?.record.driver }
            row.registration = trip.vehicleID.flatMap { garage.vehicle($0)?.record.registration }
            if !trip.voided, let start = trip.startedAt {
                row.rate = ReimbursementRate.applying(rates, tripClass: row.tripClass, on: zone.wallClock(start).date)
            }
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
                months[String(zone.date(start).prefix(7)), default: [:]][row.tripClass, default: 0] += row.km
            }
            if let rate = row.rate, let amount = row.reimbursement {
                money[row.tripClass, default: [:]][rate.currency, default: 0] += amount
                used.insert(rate)
            }
        }
        self.rows = rows
        self.totals = totals
        self.months = months
        self.reimbursementTotals = money
        self.ratesUsed = used.sorted { ($0.from.daysSinceEpoch, $0.tripClass) < ($1.from.daysSinceEpoch, $1.tripClass) }
    }

    /// The span `[start, end)` of `year` in `zone` (local 1 January to local 1 January).
    public static func span(of year: Int, zone: TimeZoneRules = .utc) -> (GPSTime, GPSTime) {
        func midnight(_ y: Int) -> GPSTime { GPSTime(seconds: zone.utc(fromLocal: CivilDate(year: y, month: 1, day: 1).daysSinceEpoch * 86_400)) }
        return (midnight(year), midnight(year + 1))
    }

    /// `2025-01-01`.
    static func day(_ d: CivilDate) -> String { ISO8601.format(GPSTime(seconds: d.daysSinceEpoch * 86_400)).prefix(10).description }

    /// `2,345.60 EUR`-style amount with two decimals (`12.34`).
    static func money(_ v: Double?) -> String { v.map { NumberText.fixed($0, places: 2) } ?? "" }

    static func km(_ v: Double?) -> String { v.map { NumberText.fixed($0, places: 1) } ?? "" }

    static func place(_ name: String?, _ p: TripOverview.Position?) -> String {
        if let name { return name }
        guard let p else { return "" }
        return NumberText.fixed(p.latitude, places: 5) + " " + NumberText.fixed(p.longitude, places: 5)
    }

    /// The local date and `08:15 CET` in the report's zone, or empty.
    func time(_ t: GPSTime?) -> (String, String) {
        guard let t else { return ("", "") }
        return (zone.date(t), zone.clock(t) + " " + zone.abbreviation(t))
    }

    /// `08:15` (UTC) or empty: the CSV's `start_utc`/`end_utc` columns.
    static func utcClock(_ t: GPSTime?) -> String {
        guard let t else { return "" }
        return String(ISO8601.format(t).dropFirst(11).prefix(5))
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
