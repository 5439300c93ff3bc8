// SPDX-License-Identifier: MIT
internal import LogbookCore
package import LogbookGarage
internal import LogbookGarageStore
package import LogbookRecords
package import LogbookStore
internal import Synchronization

/// The vehicle registry as every page and picker shows it: the index's `vehicle` entries
/// folded over `[[vehicle]]` of the configuration (for a journal that lacks them), kept until
/// the index has read further (its `indexed_through_seq`), so a vehicle added with `logbook
/// vehicles add` appears at the next catch-up, without a restart.
package final class RegistryCache: Sendable {
    private struct Entry {
        var sequence: UInt64
        var vehicles: [GarageVehicle]
    }

    private let cached = Mutex<Entry?>(nil)

    package init() {}

    /// Every vehicle, retired ones included, in the order they were first seen (configured
    /// ones first); read on the index's thread.
    package func vehicles(_ index: TripIndex, configured: [ConfiguredVehicle]) throws -> [GarageVehicle] {
        let sequence = try index.indexedPosition().sequence
        if let hit = cached.withLock({ $0 }), hit.sequence == sequence { return hit.vehicles }
        let vehicles = try GarageStore.garage(index, configured: configured, types: [VehicleRecord.type]).vehicles
        cached.withLock { $0 = Entry(sequence: sequence, vehicles: vehicles) }
        return vehicles
    }

    /// Forgets the cached set (after a write of this app's own).
    package func invalidate() {
        cached.withLock { $0 = nil }
    }
}

/// The registry of one request: names vehicles and lists the ones a picker offers.
struct Registry: Sendable {
    /// Every vehicle, retired ones included.
    var all: [GarageVehicle]

    /// The vehicles a picker offers: not retired.
    var active: [GarageVehicle] { all.filter { !$0.retired } }

    /// The vehicle `id` as lists and the API name it (as `logbook` does: a vehicle the
    /// registry does not know is named by its id).
    func vehicle(_ id: String?) -> Vehicle? {
        guard let id else { return nil }
        return all.first { $0.id == id }?.vehicle ?? Vehicle(id: id, name: id)
    }

    /// Who drove `trip`: its own driver, else its vehicle's usual one.
    func driver(of trip: TripOverview) -> String? {
        trip.driver ?? all.first { $0.id == trip.vehicleID }?.record.driver
    }
}

extension WebApp {
    /// The registry now; the configured vehicles alone when the index cannot be read.
    func registryNow() async -> Registry {
        let configured = configuration.vehicles
        let cache = registry
        do throws(APIError) {
            return Registry(all: try await shelf.read { index in try cache.vehicles(index, configured: configured) })
        } catch {
            return Registry(all: Garage(configured: configured, entries: []).vehicles)
        }
    }
}
