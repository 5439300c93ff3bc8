// SPDX-License-Identifier: MIT
public import LogbookCore
public import LogbookRecords

/// The garage as the journal's entries describe it: vehicles, fuel logs, odometer readings and
/// trip classifications, with amendments and voids applied in journal order.
///
/// Built in memory from the index's `entries` table (a household's entries over ten years are
/// a few thousand rows: milliseconds), so it needs no tables of its own that could drift.
public struct Garage: Sendable {
    /// By id, in the order they were first seen (configured vehicles first).
    public private(set) var vehicles: [GarageVehicle] = []
    /// Every fuel log including voided ones, in journal order of their first entry.
    public private(set) var fuelLogs: [FuelLog] = []
    public private(set) var readings: [OdometerReading] = []
    public private(set) var classifications: [TripID: TripClassification] = [:]
    /// Service tasks, removed ones included.
    public internal(set) var services: [ServiceTask] = []
    /// Entries that could not be applied (an amendment of nothing, a fuel log missing fields):
    /// shown, never silently dropped.
    public internal(set) var ignored: [RecordedGarageEntry] = []

    /// The entry types this projection reads from the index.
    public static let entryTypes = ["vehicle", "fuel", "odometer", "trip.class", "service", "service.done"]

    /// - Parameters:
    ///   - configured: the `[[vehicle]]` tables of the configuration file. An entry in the
    ///     journal wins over the file for every field both set (the file keeps naming signal
    ///     sources; a person's edits are not undone by an old config file).
    ///   - entries: garage entries in journal order.
    public init(configured: [Vehicle] = [], entries: [RecordedGarageEntry]) {
        for v in configured {
            var fields: [String: JSONValue] = ["name": .string(v.name)]
            if let make = v.make { fields["make"] = .string(make) }
            if let model = v.model { fields["model"] = .string(model) }
            if let year = v.year { fields["year"] = .integer(year) }
            if let registration = v.registration { fields["registration"] = .string(registration) }
            vehicles.append(GarageVehicle(id: v.id, fields: fields, retired: false, configured: true, history: []))
        }
        for entry in entries { apply(entry) }
    }

    /// Applies one more entry (journal order).
    public mutating func apply(_ recorded: RecordedGarageEntry) {
        let e = recorded.entry
        switch e.type {
        case "vehicle": applyVehicle(recorded)
        case "fuel": applyFuel(recorded)
        case "odometer":
            if e.action == .void, let i = readings.firstIndex(where: { $0.id == e.subject }) {
                readings[i].voided = true
            } else if e.action == .add, let f = e.fields.members, let vehicle = f["vehicle"]?.stringValue,
                let at = f["at"]?.stringValue.flatMap(ISO8601.parse), let km = f["odometer_km"]?.doubleValue
            {
                readings.append(OdometerReading(id: e.subject, vehicle: vehicle, at: at, odometerKm: km, voided: false))
            } else {
                ignored.append(recorded)
            }
        case "service", "service.done": applyService(recorded)
        case "trip.class":
            guard let n = UInt64(e.subject), let f = e.fields.members, let c = f["class"]?.stringValue else { return ignored.append(recorded) }
            let id = TripID(n)
            var history = classifications[id]?.history ?? []
            history.append(recorded)
            classifications[id] = TripClassification(
                trip: id, tripClass: c, purpose: f["purpose"]?.stringValue, partner: f["partner"]?.stringValue,
                destination: f["destination"]?.stringValue, history: history)
        default:
            ignored.append(recorded)
        }
    }

    private mutating func applyVehicle(_ recorded: RecordedGarageEntry) {
        let e = recorded.entry
        let changes = e.fields.members ?? [:]
        if let i = vehicles.firstIndex(where: { $0.id == e.subject }) {
            switch e.action {
            case .add, .amend:
                // An add of a configured (or retired) vehicle adopts or re-activates it.
                if e.action == .add { vehicles[i].retired = false }
                vehicles[i].fields.merge(changes) { _, new in new }
            case .void:
                vehicles[i].retired = true
            }
            vehicles[i].history.append(recorded)
        } else if e.action == .add {
            vehicles.append(GarageVehicle(id: e.subject, fields: changes, retired: false, configured: false, history: [recorded]))
        } else {
            ignored.append(recorded)
        }
    }

    private mutating func applyFuel(_ recorded: RecordedGarageEntry) {
        let e = recorded.entry
        let index = fuelLogs.firstIndex { $0.id == e.subject }
        switch (e.action, index) {
        case (.add, nil):
            guard var log = FuelLog(e.subject, fields: e.fields.members ?? [:]) else { return ignored.append(recorded) }
            log.history = [recorded]
            fuelLogs.append(log)
        case (.amend, let i?):
            var fields = Self.fields(of: fuelLogs[i])
            fields.merge(e.fields.members ?? [:]) { _, new in new }
            guard var log = FuelLog(e.subject, fields: fields) else { return ignored.append(recorded) }
            log.voided = fuelLogs[i].voided
            log.history = fuelLogs[i].history + [recorded]
            fuelLogs[i] = log
        case (.void, let i?):
            fuelLogs[i].voided = true
            fuelLogs[i].history.append(recorded)
        default:
            ignored.append(recorded)
        }
    }

    static func fields(of log: FuelLog) -> [String: JSONValue] {
        var f: [String: JSONValue] = [
            "vehicle": .string(log.vehicle), "at": .string(ISO8601.format(log.at)), "odometer_km": .number(log.odometerKm),
            "litres": .number(log.litres), "price": .number(log.price), "currency": .string(log.currency),
            "full": .bool(log.full), "missed": .bool(log.missed),
        ]
        if let s = log.station { f["station"] = .string(s) }
        if let s = log.stationAddress { f["station_address"] = .string(s) }
        if let lat = log.latitude, let lon = log.longitude {
            f["lat"] = .number(lat)
            f["lon"] = .number(lon)
        }
        return f
    }

    /// The vehicle with `id`, retired or not.
    public func vehicle(_ id: String) -> GarageVehicle? { vehicles.first { $0.id == id } }

    /// The fuel log with `id`, voided or not.
    public func fuelLog(_ id: String) -> FuelLog? { fuelLogs.first { $0.id == id } }

    /// The fills that count (not voided), of one vehicle or all.
    public func activeFills(vehicle: String? = nil) -> [FuelLog] {
        fuelLogs.filter { !$0.voided && (vehicle == nil || $0.vehicle == vehicle) }
    }
}

extension JSONValue {
    /// An object's members by key (the last wins), or nil for other values.
    var members: [String: JSONValue]? {
        guard case .object(let list) = self else { return nil }
        var out: [String: JSONValue] = [:]
        for (k, v) in list { out[k] = v }
        return out
    }
}
