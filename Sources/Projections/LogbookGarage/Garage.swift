// SPDX-License-Identifier: MIT
public import LogbookCore
public import LogbookRecords

/// The garage as the journal's entries describe it: vehicles, fuel logs, odometer readings,
/// service tasks and trip classifications, with amendments and voids applied in journal order.
///
/// Built in memory from the index's `entries` table (a household's entries over ten years are
/// a few thousand rows: milliseconds), so it needs no tables of its own that could drift.
public struct Garage: Sendable {
    private var vehicleFold = EntryFold<VehicleRecord>()
    private var configuredIDs: Set<String> = []
    private var fuelFold = EntryFold<FuelRecord>()
    private var readingFold = EntryFold<OdometerRecord>()
    /// The OBD source's pending fill-ups (``Garage/pendingFills``).
    var pendingFold = EntryFold<PendingFillRecord>()
    public private(set) var classifications: [TripID: TripClassification] = [:]
    /// Service tasks, removed ones included.
    public internal(set) var services: [ServiceTask] = []
    private var otherIgnored: [RecordedEntry] = []
    /// The units its refusals name distances in (`[units] system` of the reader that checks).
    public var units = UnitSystem.metric

    /// The entry types this projection reads from the index.
    public static let entryTypes = [
        VehicleRecord.type, FuelRecord.type, OdometerRecord.type, TripClassRecord.type, ServiceTaskRecord.type,
        ServiceDoneRecord.type, PendingFillRecord.type,
    ]

    /// - Parameters:
    ///   - configured: the `[[vehicle]]` tables of the configuration file, for a journal that
    ///     does not hold them yet (logbookd journals them at its start, origin `config`).
    ///   - entries: entries in journal order.
    public init(configured: [ConfiguredVehicle] = [], entries: [RecordedEntry]) {
        for v in configured {
            vehicleFold.seed(id: v.id, record: v.record)
            configuredIDs.insert(v.id)
        }
        for entry in entries { apply(entry) }
    }

    /// Applies one more entry (journal order).
    public mutating func apply(_ recorded: RecordedEntry) {
        let e = recorded.entry
        switch e.type {
        case VehicleRecord.type: vehicleFold.apply(recorded)
        case FuelRecord.type: fuelFold.apply(recorded)
        case OdometerRecord.type: readingFold.apply(recorded)
        case PendingFillRecord.type: pendingFold.apply(recorded)
        case ServiceTaskRecord.type, ServiceDoneRecord.type: applyService(recorded)
        case TripClassRecord.type:
            guard let n = UInt64(e.subject), e.action != .void, let c = try? TripClassRecord(json: e.fields) else {
                return otherIgnored.append(recorded)
            }
            let id = TripID(n)
            // A person's classification always wins: a rule's entry that lands after one (a
            // rule applied while a person classified) changes nothing.
            if e.origin == EntryOrigin.rule, let now = classifications[id], now.origin != EntryOrigin.rule {
                return otherIgnored.append(recorded)
            }
            classifications[id] = TripClassification(trip: id, record: c, history: (classifications[id]?.history ?? []) + [recorded])
        default:
            otherIgnored.append(recorded)
        }
    }

    /// By id, in the order they were first seen (configured vehicles first).
    public var vehicles: [GarageVehicle] {
        vehicleFold.items.map {
            GarageVehicle(id: $0.id, record: $0.record, retired: $0.voided, configured: configuredIDs.contains($0.id), history: $0.history)
        }
    }

    /// Every fuel log including voided ones, in journal order of their first entry.
    public var fuelLogs: [FuelLog] {
        fuelFold.items.enumerated().map { i, f in FuelLog(id: f.id, record: f.record, voided: f.voided, history: f.history, number: i + 1) }
    }

    /// Every odometer reading including voided ones.
    public var readings: [OdometerReading] {
        readingFold.items.enumerated().map { i, r in OdometerReading(id: r.id, record: r.record, voided: r.voided, history: r.history, number: i + 1) }
    }

    /// Entries that could not be applied (an amendment of nothing, fields that do not decode):
    /// shown, never silently dropped.
    public var ignored: [RecordedEntry] { vehicleFold.ignored + fuelFold.ignored + readingFold.ignored + pendingFold.ignored + otherIgnored }

    /// The vehicle with `id`, retired or not.
    public func vehicle(_ id: String) -> GarageVehicle? {
        vehicleFold[id].map {
            GarageVehicle(id: $0.id, record: $0.record, retired: $0.voided, configured: configuredIDs.contains($0.id), history: $0.history)
        }
    }

    /// The fuel log with `id`, voided or not.
    public func fuelLog(_ id: String) -> FuelLog? {
        fuelFold.position(of: id).map { i in
            let f = fuelFold.items[i]
            return FuelLog(id: f.id, record: f.record, voided: f.voided, history: f.history, number: i + 1)
        }
    }

    /// Keeps an entry that could not be applied.
    mutating func noteIgnored(_ recorded: RecordedEntry) { otherIgnored.append(recorded) }

    /// The odometer reading with `id`, voided or not.
    public func reading(_ id: String) -> OdometerReading? {
        readingFold.position(of: id).map { i in
            let r = readingFold.items[i]
            return OdometerReading(id: r.id, record: r.record, voided: r.voided, history: r.history, number: i + 1)
        }
    }

    /// The stored fields of fuel log `id` (amendments merged), to lay an amendment over.
    func fuelFields(_ id: String) -> JSONValue? { fuelFold[id]?.fields }

    /// The stored fields of reading `id`.
    func readingFields(_ id: String) -> JSONValue? { readingFold[id]?.fields }

    /// The fills that count (not voided), of one vehicle or all.
    public func activeFills(vehicle: String? = nil) -> [FuelLog] {
        fuelLogs.filter { !$0.voided && (vehicle == nil || $0.vehicle == vehicle) }
    }

    /// The readings that count (not voided), of one vehicle or all.
    public func activeReadings(vehicle: String? = nil) -> [OdometerReading] {
        readings.filter { !$0.voided && (vehicle == nil || $0.vehicle == vehicle) }
    }
}
