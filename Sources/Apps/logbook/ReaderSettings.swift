// SPDX-License-Identifier: MIT
import Foundation
import LogbookConfig
import LogbookCore
import LogbookSettings
import LogbookStore

/// What the commands that read the record take from the shared configuration file: the
/// state directory, `[index]`, `[units]`, and `[trip]` with `[[vehicle]]` (to explain trip
/// boundaries and name vehicles). Flags beat `LOGBOOK_*`/`LOGBOOKD_*` variables beat the file.
struct ReaderSettings {
    var daemon: Settings
    var reader: ReaderConfiguration

    var stateDirectory: String { daemon.stateDirectory }
    var journalDirectory: String { daemon.journalDirectory }
    var indexPath: String { reader.indexPath(stateDirectory: daemon.stateDirectory) }
    var units: UnitSystem { reader.units }

    /// Loads the configuration; a bad file or key ends the command with exit 78.
    static func load(_ paths: PathOptions) throws -> ReaderSettings {
        let environment = ProcessInfo.processInfo.environment
        let overrides = Settings.Overrides(
            stateDirectory: paths.stateDir ?? Environment.value("LOGBOOK_STATE_DIR"),
            runtimeDirectory: paths.runtimeDir ?? Environment.value("LOGBOOK_RUNTIME_DIR"))
        do {
            let daemon = try Settings.load(file: paths.config, environment: environment, overrides: overrides)
            let reader = try ReaderConfiguration.load(file: paths.config, environment: environment)
            return ReaderSettings(daemon: daemon, reader: reader)
        } catch {
            throw CLIError.config(error.description)
        }
    }

    /// The configured vehicle, or one named by its id.
    func vehicle(_ id: String?) -> Vehicle? {
        guard let id else { return nil }
        return daemon.vehicle(id) ?? Vehicle(id: id, name: id)
    }

    /// Index options from the configuration.
    var indexOptions: TripIndex.Options {
        var o = TripIndex.Options()
        o.maxBridgedGap = daemon.trip.maxBridgedGap
        return o
    }
}
