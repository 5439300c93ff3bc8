// SPDX-License-Identifier: MIT
public import LogbookCore
public import LogbookGarage
internal import LogbookJournal
public import LogbookPlaces
public import LogbookRecords
public import LogbookStore

/// The garage as the trip index holds it: its entries projected, the KPIs, service reminders
/// and the yearly report. One implementation for the readers (`logbook` and `logbook-web`);
/// each runs these on a thread of its own (the index blocks).
public enum GarageStore {
    /// The garage from the index's entries of `types`, with the configured vehicles.
    ///
    /// - Parameter types: the KPIs leave out `trip.class` (one entry per classified trip: the
    ///   bulk of a decade's entries, and stats need none of them).
    public static func garage(_ index: TripIndex, configured: [ConfiguredVehicle], types: [String] = Garage.entryTypes) throws -> Garage {
        var entries: [RecordedEntry] = []
        for type in types {
            try index.forEachEntry(type: type) { e in
                entries.append(RecordedEntry(e))
                return true
            }
        }
        entries.sort { $0.sequence < $1.sequence }
        return Garage(configured: configured, entries: entries)
    }

    /// Every garage entry type but trip classifications.
    public static let withoutClassifications = Garage.entryTypes.filter { $0 != TripClassRecord.type }

    /// The KPIs over `range` (all vehicles, or one).
    public static func stats(_ index: TripIndex, garage: Garage, range: StatsRange, vehicle: String?) throws -> GarageStats {
        let metres = try index.distanceByVehicle(since: range.since, until: range.until)
        return GarageStats(garage: garage, range: range, vehicle: vehicle, tripKm: metres.mapValues { $0 / 1000 })
    }

    /// Each vehicle's odometer as the trips since its last reading estimate it.
    public static func calibration(_ index: TripIndex, garage: Garage, vehicle: String) throws -> OdometerCalibration {
        var legs: [OdometerCalibration.Leg] = []
        try index.forEachTrip(matching: TripQuery(vehicleID: vehicle, includeDiscarded: false, includeVoided: false)) { t in
            if let s = t.startedAt { legs.append(.init(start: s, km: t.distance / 1000)) }
            return true
        }
        return OdometerCalibration(anchors: garage.anchors(vehicle: vehicle), legs: legs)
    }

    /// The state of every service task in effect at `now`.
    public static func serviceDue(_ index: TripIndex, garage: Garage, now: GPSTime) throws -> [ServiceDue] {
        let tasks = garage.services.filter { !$0.removed }
        var odometers: [String: Double] = [:]
        for vehicle in Set(tasks.map(\.vehicle)) {
            odometers[vehicle] = try calibration(index, garage: garage, vehicle: vehicle).estimate(at: now)
        }
        return tasks.map { ServiceDue($0, odometerNow: odometers[$0.vehicle], now: now) }
    }

    /// The mileage report of `year` (local, in `zone`), with `rates` applied, sealed with the index's journal position and the
    /// last checkpoint in the journal up to it.
    public static func report(
        _ index: TripIndex, garage: Garage, year: Int, vehicle: String?, namer: PlaceNamer, journalDirectory: String,
        zone: TimeZoneRules = .utc, rates: [ReimbursementRate] = []
    ) throws -> MileageReport {
        let (start, end) = MileageReport.span(of: year, zone: zone)
        let trips = try index.trips(matching: TripQuery(vehicleID: vehicle, since: start, until: end, includeDiscarded: false)).map(namer.named)
        let histories = try index.histories()
        var calibrations: [String: OdometerCalibration] = [:]
        for id in Set(trips.compactMap(\.vehicleID)) { calibrations[id] = try calibration(index, garage: garage, vehicle: id) }
        let position = try index.indexedPosition()
        let checkpoint = try? JournalReader(directory: journalDirectory).lastCheckpoint(upTo: position.sequence)?.sequence
        let seal = MileageReport.JournalSeal(sequence: position.sequence, chainHead: position.chainHead, checkpointSequence: checkpoint ?? nil)
        return MileageReport(
            year: year, vehicle: vehicle, trips: trips, garage: garage, calibrations: calibrations, seal: seal, histories: histories,
            zone: zone, rates: rates)
    }

    /// The named places in effect, by id (the `place` entries' subject).
    public static func namedPlaces(_ index: TripIndex) throws -> [String: NamedPlace] {
        var entries: [PlaceEntries.Entry] = []
        try index.forEachEntry(type: PlaceRecord.type) { e in
            entries.append(PlaceEntries.Entry(action: e.entry.action.name, subject: e.entry.subject, fields: e.entry.fields))
            return true
        }
        return PlaceEntries.foldByID(entries)
    }
}

extension RecordedEntry {
    /// The garage's view of an indexed user entry.
    public init(_ e: IndexedEntry) {
        let action: RecordEntry.Action =
            switch e.entry.action {
            case .add: .add
            case .amend: .amend
            case .void: .void
            }
        self.init(
            sequence: e.sequence,
            entry: RecordEntry(type: e.entry.type, action: action, subject: e.entry.subject, fields: e.entry.fields, origin: e.entry.origin),
            recordedAt: e.entry.recordedAt.map { GPSTime(nanoseconds: $0) })
    }
}

/// The index answers the checks of trip corrections.
extension TripIndex: TripLookup {}

extension GarageStore {
    /// The trips still waiting for a classification, as of `now`.
    public static func unclassified(_ index: TripIndex, now: GPSTime) throws -> UnclassifiedTrips {
        var classified: Set<TripID> = []
        try index.forEachEntry(type: TripClassRecord.type) { e in
            if e.entry.action != .void, let n = UInt64(e.entry.subject) { classified.insert(TripID(n)) }
            return true
        }
        let trips = try index.trips(matching: TripQuery(includeDiscarded: false, includeVoided: false))
        return UnclassifiedTrips(trips: trips, classified: classified, now: now)
    }
}
