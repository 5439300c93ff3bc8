// SPDX-License-Identifier: MIT
internal import LogbookCore
internal import LogbookGarage
internal import LogbookGarageStore
internal import LogbookStore

/// What the Dashboard shows: the KPIs over a range and the service tasks' states.
struct DashboardView: Sendable {
    var stats: GarageStats
    var service: [ServiceDue]
    /// Trips waiting for a classification (all vehicles).
    var unclassified: UnclassifiedTrips? = nil
    /// Price per litre per currency over the range (``PriceTrend``).
    var prices: [PriceTrend.Series] = []
}

/// What the Garage shows: vehicles, the newest fuel logs and the service tasks.
struct GarageView: Sendable {
    var vehicles: [GarageVehicle]
    /// Newest first, voided ones left out.
    var fills: [FuelLog]
    var service: [ServiceDue]
    /// The currency of the newest fill (the form's default).
    var lastCurrency: String?
    /// The OBD adapter's fill-ups that wait for their price, oldest first.
    var pending: [PendingFill] = []
}

extension WebApp {
    /// The KPIs of `range` (all vehicles or one) and the service states, from the index.
    func dashboard(range: StatsRange, vehicle: String?) async throws(APIError) -> DashboardView {
        let configured = configuration.vehicles
        return try await shelf.read { index throws -> DashboardView in
            let garage = try GarageStore.garage(index, configured: configured, types: GarageStore.withoutClassifications)
            if let vehicle, garage.vehicle(vehicle) == nil { throw APIError.notFound("no vehicle \"\(vehicle)\"") }
            let stats = try GarageStore.stats(index, garage: garage, range: range, vehicle: vehicle)
            let due = try GarageStore.serviceDue(index, garage: garage, now: GPSClock.now())
            return DashboardView(
                stats: stats, service: due.filter { vehicle == nil || $0.task.vehicle == vehicle },
                unclassified: try GarageStore.unclassified(index, now: GPSClock.now()),
                prices: PriceTrend.series(garage.fuelLogs, since: range.since, vehicle: vehicle))
        }
    }

    /// The garage: every vehicle, the newest `fuelLimit` fills (of `vehicle`, or all) and the
    /// service tasks.
    func garageView(fuelLimit: Int, vehicle: String? = nil) async throws(APIError) -> GarageView {
        let configured = configuration.vehicles
        return try await shelf.read { index throws -> GarageView in
            let garage = try GarageStore.garage(index, configured: configured, types: GarageStore.withoutClassifications)
            if let vehicle, garage.vehicle(vehicle) == nil { throw APIError.notFound("no vehicle \"\(vehicle)\"") }
            let fills = garage.activeFills(vehicle: vehicle).sorted { $0.at > $1.at }
            let due = try GarageStore.serviceDue(index, garage: garage, now: GPSClock.now())
            return GarageView(
                vehicles: garage.vehicles, fills: Array(fills.prefix(fuelLimit)),
                service: due.filter { vehicle == nil || $0.task.vehicle == vehicle },
                lastCurrency: garage.activeFills().max { $0.at < $1.at }?.currency,
                pending: garage.pendingFills.filter { $0.state == .open && (vehicle == nil || $0.vehicle == vehicle) })
        }
    }
}
