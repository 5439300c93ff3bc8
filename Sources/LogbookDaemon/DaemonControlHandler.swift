// SPDX-License-Identifier: MIT
internal import LogbookControl
internal import LogbookCore

/// The daemon's side of the control socket: `status` reads the shared state; trip commands
/// go through the pipeline like every other event, so they are ordered with the fixes.
struct DaemonControlHandler: ControlHandler {
    let state: DaemonState
    let events: AsyncStream<PipelineEvent>.Continuation
    /// The configuration in force (vehicles change on a reload).
    let configuration: ConfigurationCell

    func currentState() -> JSONValue { state.snapshot.json }

    func execute(_ command: String, _ request: JSONValue) async -> Result<JSONValue, ControlError> {
        let tripCommand: TripCommand
        switch command {
        case "trip.start":
            let vehicle = request["vehicle"]?.stringValue
            let config = configuration.current
            if let vehicle, config.vehicle(vehicle) == nil {
                let known = config.vehicles.map(\.id).joined(separator: ", ")
                return .failure(ControlError(code: "unknown_vehicle", message: "no vehicle \"\(vehicle)\" is configured (known: \(known.isEmpty ? "none" : known))"))
            }
            tripCommand = .start(vehicle: vehicle)
        case "trip.stop":
            guard state.snapshot.trip != nil else {
                return .failure(ControlError(code: "no_trip", message: "no trip is being recorded"))
            }
            tripCommand = .stop
        default:
            return .failure(ControlError(code: "unknown_command", message: "unknown command \"\(command)\""))
        }
        let outcome = await withCheckedContinuation { (done: CheckedContinuation<CommandOutcome, Never>) in
            let result = events.yield(.command(tripCommand, reply: { done.resume(returning: $0) }))
            if case .terminated = result { done.resume(returning: CommandOutcome(tripID: nil, error: "the daemon is stopping")) }
        }
        if let error = outcome.error { return .failure(ControlError(code: "refused", message: error)) }
        let live = state.snapshot
        var members: [(String, JSONValue)] = [("ok", .bool(true))]
        if case .stop = tripCommand {
            members.append(("trip", live.lastTrip?.json ?? .null))
        } else {
            members.append(("trip", live.trip?.json ?? .null))
        }
        return .success(.object(members))
    }
}
