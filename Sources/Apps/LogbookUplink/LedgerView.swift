// SPDX-License-Identifier: MIT
public import LogbookCore
public import LogbookGarage
public import LogbookRecords

/// What the ledger implies for each vehicle, worked out with the folds the CLI and the web
/// app use: the registry (``Garage``: `[[vehicle]]` seeds, journal wins), the trips as
/// corrected (``TripCorrections``), distance logged, the odometer by calibration
/// (``OdometerCalibration``, as `logbook service list` estimates it), fuel economy by the
/// full-tank method (``FuelEconomy``) and the most urgent service task (``ServiceDue``).
///
/// Made when the ledger changes (not per published message) and now and then for the time
/// that passes (a service falls due by date).
public struct LedgerView: Sendable, Equatable {
    /// One vehicle's figures.
    public struct VehicleFigures: Sendable, Equatable {
        public var id: String
        public var record: VehicleRecord
        /// Retired in the registry: no longer announced to Home Assistant.
        public var retired = false
        /// Metres of the trips that count (not void, not discarded), as assigned.
        public var loggedMeters = 0.0
        /// The odometer now, calibrated from readings and fill-ups; nil without any.
        public var odometerKm: Double?
        /// The newest trip that counts.
        public var lastTrip: CorrectedTrip?
        /// No trip counts, though the vehicle has closed trips (all voided, discarded or
        /// assigned away): a "Last trip ended" published before is stale.
        public var lastTripWithdrawn = false
        /// L/100 km over every valid full-tank interval; nil without one.
        public var fuelEconomy: Double?
        /// The most urgent active service task.
        public var service: ServiceDue?
        /// The trouble codes the car reports now (stored first), from the OBD source's signals.
        public var faultCodes: [FaultCodeSignal] = []

        /// What names its Home Assistant device.
        public var info: HADiscovery.VehicleInfo {
            HADiscovery.VehicleInfo(id: id, name: record.name ?? id, make: record.make, model: record.model)
        }
    }

    /// Configured vehicles first, then the journal's, then vehicles only trips name.
    public var vehicles: [VehicleFigures] = []
    /// The vehicle of the newest trip (the position belongs to it while idle).
    public var lastVehicle: String?
    /// The last journal sequence the figures include.
    public var through: UInt64
    /// The time the odometer and service states are for: the wall clock, or the newest trip
    /// start if that is later (a replayed drive from another year).
    public var now: GPSTime

    /// Works the figures out. `configured`: `[[vehicle]]` of the configuration file.
    public init(ledger: VehicleLedger, configured: [ConfiguredVehicle], now wall: GPSTime) {
        through = ledger.through
        let garage = Garage(configured: configured, entries: ledger.entries.filter { !TripCorrections.types.contains($0.entry.type) })
        let trips = CorrectedTrip.all(ledger, corrections: ledger.corrections)
        let newest = trips.compactMap(\.start).max()
        now = newest.map { max(wall, GPSTime(nanoseconds: $0.nanoseconds + 1)) } ?? wall
        lastVehicle = trips.last?.vehicle
        var byVehicle: [String: [CorrectedTrip]] = [:]
        for t in trips where t.counts { byVehicle[t.vehicle ?? "", default: []].append(t) }
        var ids: [String] = []
        var records: [String: (VehicleRecord, Bool)] = [:]
        for v in garage.vehicles {
            ids.append(v.id)
            records[v.id] = (v.record, v.retired)
        }
        // Vehicles only trips name (recorded or assigned) stay, at 0 km once their trips moved.
        for v in ledger.trips.map(\.vehicle) + trips.compactMap(\.vehicle) where records[v] == nil && !ids.contains(v) { ids.append(v) }
        let tasks = garage.services.filter { !$0.removed }
        let faults = ledger.faultCodes
        for id in ids {
            var f = VehicleFigures(id: id, record: records[id]?.0 ?? VehicleRecord(), retired: records[id]?.1 ?? false)
            let own = byVehicle[id] ?? []
            f.loggedMeters = own.reduce(0) { $0 + $1.distance }
            f.lastTrip = own.max { ($0.end ?? $0.start ?? GPSTime(nanoseconds: .min), $0.sequence) < ($1.end ?? $1.start ?? GPSTime(nanoseconds: .min), $1.sequence) }
            f.lastTripWithdrawn = f.lastTrip == nil
                && (ledger.trips.contains { $0.vehicle == id && !$0.isOpen } || trips.contains { $0.vehicle == id && !$0.open })
            let legs = own.compactMap { t in t.start.map { OdometerCalibration.Leg(start: $0, km: t.distance / 1000) } }
            let odometer = OdometerCalibration(anchors: garage.anchors(vehicle: id), legs: legs).estimate(at: now)
            f.odometerKm = odometer
            f.fuelEconomy = FuelEconomy.litresPer100km(FuelEconomy.intervals(garage.activeFills(vehicle: id)))
            f.faultCodes = faults.codes(vehicle: id)
            f.service = tasks.filter { $0.vehicle == id }.map { ServiceDue($0, odometerNow: odometer, now: now) }.min(by: Self.moreUrgent)
            vehicles.append(f)
        }
    }

    /// The figures of vehicle `id`.
    public subscript(id: String) -> VehicleFigures? { vehicles.first { $0.id == id } }

    /// Overdue before due soon before ok before unknown; then the fewest days, then km.
    static func moreUrgent(_ a: ServiceDue, _ b: ServiceDue) -> Bool {
        func rank(_ s: ServiceDue.State) -> Int {
            switch s {
            case .overdue: 0
            case .dueSoon: 1
            case .ok: 2
            case .unknown: 3
            }
        }
        let big = Double.greatestFiniteMagnitude
        return (rank(a.state), a.daysLeft ?? big, a.kmLeft ?? big, a.task.id) < (rank(b.state), b.daysLeft ?? big, b.kmLeft ?? big, b.task.id)
    }
}
