// SPDX-License-Identifier: MIT
internal import LogbookCore
internal import LogbookRecords
internal import LogbookSettings
internal import LogbookSystemd
internal import Logging

/// How a reload reaches the rest of the daemon.
struct ReloadHooks: Sendable {
    /// Reads the configuration again, as at start (same file, environment and flags).
    var load: (@Sendable () throws -> Settings)?
    /// The shared log level, if `main` installed one.
    var logLevel: LogLevelSwitch?
    /// The signal-sources service restarts the monitors whose sources changed.
    var sources: AsyncStream<[SourceConfiguration]>.Continuation
    /// Vehicles a changed `[[vehicle]]` table adds to (or changes in) the journal.
    var vehicles: VehicleRegistry
}

extension PipelineService {
    /// SIGHUP: re-reads the configuration, applies what can change live and reports what
    /// needs a restart. The open trip goes on: same id, figures and sources. A configuration
    /// that does not load is refused with the key named and the running one kept.
    ///
    /// systemd sees `RELOADING=1` … `READY=1`, so `systemctl reload` returns once it is done.
    func reload(_ running: inout Settings, _ recorder: inout TripRecorder, at now: MonotonicInstant) {
        notifier.reloading()
        guard let load = reloadHooks.load else {
            logger.warning("reload: this daemon was started without a configuration loader; nothing changed")
            return notifier.ready()
        }
        let loaded: Settings
        do {
            loaded = try load()
        } catch {
            logger.error("reload refused; the running configuration is kept", metadata: ["error": "\(error)"])
            return notifier.ready(status: "reload refused (\(error)); running configuration kept")
        }
        do {
            try loaded.checkVehicleReferences(known: reloadHooks.vehicles.activeIDs.union(loaded.vehicles.map(\.id)))
        } catch {
            logger.error("reload refused; the running configuration is kept", metadata: ["error": "\(error)"])
            return notifier.ready(status: "reload refused (\(error)); running configuration kept")
        }
        do {
            try Daemon.seedVehicles(loaded, into: reloadHooks.vehicles, journal: journal, logger: logger)
        } catch {
            logger.error("reload: \(error)")
        }
        let change = ConfigurationChange(from: running, to: loaded)
        let merged = ConfigurationChange.merged(running: running, loaded: loaded)
        // A `service` source vouches for the daemon's life: one removed lets go of the trip,
        // one added starts (or holds) it, as at start.
        let before = running.sources.filter { $0.kind == .service }
        let after = merged.sources.filter { $0.kind == .service }
        for s in before where !after.contains(where: { $0.name == s.name }) { recorder.handle(.signal(s.signal(isOn: false)), at: now) }
        recorder.reconfigure(merged)
        for s in after where !before.contains(where: { $0.name == s.name }) { recorder.handle(.signal(s.signal(isOn: true)), at: now) }
        reloadHooks.logLevel?.level = merged.logLevel
        if merged.sources != running.sources { reloadHooks.sources.yield(merged.sources) }
        running = merged
        logger.notice(
            "configuration reloaded: \(change.summary)",
            metadata: ["applied": "\(change.applied)", "needs_restart": "\(change.needsRestart)"])
        notifier.ready(status: change.needsRestart.isEmpty ? nil : "reloaded; needs a restart: \(change.needsRestart.joined(separator: ", "))")
    }
}
