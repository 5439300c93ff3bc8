// SPDX-License-Identifier: MIT
internal import LogbookCore
internal import LogbookGPSD
internal import LogbookOBD

/// Everything the pipeline reacts to, merged into one stream so it is handled in order.
enum PipelineEvent: Sendable {
    /// gpsd events in arrival order (a burst arrives as one batch).
    case gps([GPSDEvent])
    /// A vehicle source turned on or off.
    case signal(VehicleSignal)
    /// What an OBD source read, in order (one batch per exchange with its adapter).
    case obd(source: String, [OBDEvent])
    /// A manual command (control socket); `reply` is called once it has been applied.
    case command(TripCommand, reply: @Sendable (CommandOutcome) -> Void)
    /// logind announced shutdown or sleep: close the trip, make it durable, then `done`
    /// (which releases the delay inhibitor lock).
    case prepareForShutdown(done: @Sendable () -> Void)
    /// Once a second: drives timers and proves the pipeline turns.
    case tick
    /// SIGHUP: re-read the configuration and apply what can change live.
    case reload
    /// The Pi's under-voltage and throttling flags changed (``ThrottleMonitor``).
    case power(PowerReading)
}

/// What a command did: the open trip afterwards, or why it was refused.
struct CommandOutcome: Sendable {
    var tripID: TripID?
    var error: String?
}
