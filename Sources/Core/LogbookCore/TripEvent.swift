// SPDX-License-Identifier: MIT
/// An input to the ``TripEngine``. Each is handed over with the monotonic instant it happened.
public enum TripEvent: Sendable, Hashable, Codable {
    /// A raw fix from the GPS source; the engine runs its own ``FixFilter`` on it.
    case fix(Fix)
    /// A vehicle signal source switched on or off.
    case signal(VehicleSignal)
    /// A command from a person or the daemon.
    case command(TripCommand)
    /// Time passed: lets timers (grace, stop, gap) fire without other input.
    case tick
}

/// Commands to the ``TripEngine``.
public enum TripCommand: Sendable, Hashable, Codable {
    /// Start a trip now (for `vehicle`, or the configured default), reason `manual`.
    case start(vehicle: String?)
    /// Stop the trip now, reason `manual`; automatic starts are held off (see ``TripEngine``).
    case stop
    /// The daemon is going down (SIGTERM, logind PrepareForShutdown): close the trip now,
    /// reason `shutdown` (or the reason of an end already pending).
    case shutdown
}
