// SPDX-License-Identifier: MIT
import Foundation
import LogbookConfig
import LogbookCore
import LogbookGarage
import LogbookGarageStore
import LogbookRecords
import LogbookSettings
import LogbookStore

/// What the commands that read the record take from the shared configuration file: the
/// state directory, `[index]`, `[units]`, and `[trip]` with `[[vehicle]]` (to explain trip
/// boundaries and name vehicles). Flags beat `LOGBOOK_*`/`LOGBOOKD_*` variables beat the file.
struct ReaderSettings {
    var daemon: Settings
    var reader: ReaderConfiguration
    /// The vehicle registry as the index holds it (``withVehicles(from:)``), over the
    /// configured vehicles.
    var registry: [String: VehicleRecord] = [:]
    /// `[[reimbursement]]`: the report's mileage allowances.
    var reimbursement: [ReimbursementRate] = []

    var stateDirectory: String { daemon.stateDirectory }
    var journalDirectory: String { daemon.journalDirectory }
    var indexPath: String { reader.indexPath(stateDirectory: daemon.stateDirectory) }
    var units: UnitSystem { reader.units }
    /// `[units] time_zone` (else the system's): local times shown and typed.
    var zone: TimeZoneRules { reader.timeZone }

    /// Loads the configuration; a bad file or key ends the command with exit 78.
    static func load(_ paths: PathOptions) throws -> ReaderSettings {
        let environment = ProcessInfo.processInfo.environment
        let overrides = Settings.Overrides(
            stateDirectory: paths.stateDir ?? Environment.value("LOGBOOK_STATE_DIR"),
            runtimeDirectory: paths.runtimeDir ?? Environment.value("LOGBOOK_RUNTIME_DIR"))
        do {
            let daemon = try Settings.load(file: paths.config, environment: environment, overrides: overrides)
            let reader = try ReaderConfiguration.load(file: paths.config, environment: environment)
            LocalZone.rules = reader.timeZone
            let rates = try ReimbursementConfig.load(file: paths.config, environment: environment)
            return ReaderSettings(daemon: daemon, reader: reader, reimbursement: rates)
        } catch {
            throw CLIError.config(error.description)
        }
    }

    /// The vehicle with `id` as the registry (else the configuration) describes it, or one
    /// named by its id.
    func vehicle(_ id: String?) -> Vehicle? {
        guard let id else { return nil }
        return registry[id]?.vehicle(id: id) ?? daemon.vehicle(id) ?? Vehicle(id: id, name: id)
    }

    /// Who drove `trip`: the trip's own driver, else its vehicle's usual one.
    func driver(of trip: TripOverview) -> String? {
        guard trip.driver == nil, let id = trip.vehicleID else { return trip.driver }
        return registry[id]?.driver ?? daemon.vehicles.first { $0.id == id }?.record.driver
    }

    /// These settings with the vehicles the index's journal knows.
    func withVehicles(from index: TripIndex) throws -> ReaderSettings {
        var copy = self
        var fold = EntryFold<VehicleRecord>()
        try index.forEachEntry(type: VehicleRecord.type) { e in
            fold.apply(RecordedEntry(e))
            return true
        }
        for v in fold.items { copy.registry[v.id] = v.record }
        return copy
    }

    /// Index options from the configuration.
    var indexOptions: TripIndex.Options {
        var o = TripIndex.Options()
        o.maxBridgedGap = daemon.trip.maxBridgedGap
        return o
    }
}
