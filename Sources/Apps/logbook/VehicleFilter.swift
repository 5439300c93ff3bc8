// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookGarage
import LogbookRecords
import LogbookSettings
import LogbookStore

/// `--vehicle ID` as a filter: an id no one knows is a mistake (a typo), not an empty list.
enum VehicleFilter {
    /// Throws a usage error (exit 64) when `id` is neither in the registry (configured or
    /// added) nor the vehicle of any recorded trip. `settings` must carry the index's
    /// vehicles (``ReaderSettings/withVehicles(from:)``).
    static func check(_ id: String?, _ settings: ReaderSettings, _ index: TripIndex) throws {
        guard let id else { return }
        if id.isEmpty { throw CLIError.usage("--vehicle needs a vehicle id") }
        let known = Set(settings.registry.keys).union(settings.daemon.vehicles.map(\.id))
        if known.contains(id) { return }
        let query = TripQuery(vehicleID: id, limit: 1, includeDiscarded: true, includeVoided: true)
        if try !index.trips(matching: query).isEmpty { return }
        throw CLIError.usage(
            "--vehicle: no vehicle \"\(id)\" (known: \(known.isEmpty ? "none" : known.sorted().joined(separator: ", ")))")
    }

    /// The same check for the garage's lists and figures (fuel, odometer, stats, report):
    /// the garage knows every vehicle the registry and the trips name.
    static func check(_ id: String?, _ garage: Garage) throws {
        guard let id else { return }
        if id.isEmpty { throw CLIError.usage("--vehicle needs a vehicle id") }
        guard garage.vehicle(id) == nil else { return }
        let known = garage.vehicles.map(\.id)
        throw CLIError.usage("--vehicle: no vehicle \"\(id)\" (known: \(known.isEmpty ? "none" : known.sorted().joined(separator: ", ")))")
    }
}
