// SPDX-License-Identifier: MIT
internal import LogbookCore
internal import LogbookSettings

/// What a reloaded configuration changes, split into what the daemon applies at once and
/// what takes a restart (`systemctl restart logbookd`).
///
/// Live: the log level, vehicles, sources, trip thresholds and hooks — the open trip goes on.
/// Restart: everything the daemon holds open or was started with (gpsd connection, directories,
/// journal, live-state timer, control socket, logind inhibitor).
struct ConfigurationChange: Sendable, Equatable {
    /// Config keys (or tables) changed and applied live.
    var applied: [String] = []
    /// Config keys changed that keep their old value until a restart.
    var needsRestart: [String] = []

    init(from old: Settings, to new: Settings) {
        func live(_ key: String, _ changed: Bool) { if changed { applied.append(key) } }
        func restart(_ key: String, _ changed: Bool) { if changed { needsRestart.append(key) } }
        live("log_level", old.logLevel != new.logLevel)
        live("vehicle", old.vehicles != new.vehicles)
        live("source", old.sources != new.sources)
        live("trip", old.trip != new.trip)
        live("hooks", old.hookOnTripStart != new.hookOnTripStart || old.hookOnTripEnd != new.hookOnTripEnd
            || old.hookTimeout != new.hookTimeout || old.hookOnFaultCode != new.hookOnFaultCode
            || old.hookOnLowBattery != new.hookOnLowBattery || old.hookOnPlaceEnter != new.hookOnPlaceEnter
            || old.hookOnPlaceLeave != new.hookOnPlaceLeave)
        live("places.hysteresis_m", old.placeHysteresis != new.placeHysteresis)
        restart("gpsd.address", old.gpsd != new.gpsd)
        restart("state_dir", old.stateDirectory != new.stateDirectory)
        restart("runtime_dir", old.runtimeDirectory != new.runtimeDirectory)
        restart("live.interval_s", old.liveInterval != new.liveInterval)
        restart("journal.commit_interval_s", old.commitInterval != new.commitInterval)
        restart("journal.disk_full_buffer_s", old.diskFullBuffer != new.diskFullBuffer)
        restart("control.socket", old.controlSocketPath != new.controlSocketPath)
        restart("control.group", old.controlGroup != new.controlGroup)
        restart("shutdown", old.logindInhibitor != new.logindInhibitor || old.logindBusAddress != new.logindBusAddress)
        restart("power", old.throttledFile != new.throttledFile || old.throttledPollInterval != new.throttledPollInterval)
    }

    /// The configuration the daemon runs with after the reload: the new live values, the
    /// old ones for everything that needs a restart.
    static func merged(running old: Settings, loaded new: Settings) -> Settings {
        var c = old
        c.logLevel = new.logLevel
        c.vehicles = new.vehicles
        c.sources = new.sources
        c.trip = new.trip
        c.hookOnTripStart = new.hookOnTripStart
        c.hookOnTripEnd = new.hookOnTripEnd
        c.hookTimeout = new.hookTimeout
        c.hookOnFaultCode = new.hookOnFaultCode
        c.hookOnLowBattery = new.hookOnLowBattery
        c.hookOnPlaceEnter = new.hookOnPlaceEnter
        c.hookOnPlaceLeave = new.hookOnPlaceLeave
        c.placeHysteresis = new.placeHysteresis
        return c
    }

    /// One line for the log and STATUS=.
    var summary: String {
        var parts = [applied.isEmpty ? "nothing changed" : "applied " + applied.joined(separator: ", ")]
        if !needsRestart.isEmpty { parts.append("needs a restart: " + needsRestart.joined(separator: ", ")) }
        return parts.joined(separator: "; ")
    }
}
