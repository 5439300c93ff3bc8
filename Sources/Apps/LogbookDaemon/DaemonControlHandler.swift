// SPDX-License-Identifier: MIT
internal import LogbookControl
internal import LogbookCore
internal import LogbookGarage
internal import LogbookJournal
internal import LogbookRecords
internal import LogbookSettings

/// The daemon's side of the control socket: `status` reads the shared state; trip commands
/// go through the pipeline like every other event, so they are ordered with the fixes;
/// garage entries are appended to the journal directly (its `append` is thread-safe and an
/// entry does not depend on trip state) and acknowledged once durable.
struct DaemonControlHandler: ControlHandler {
    let state: DaemonState
    let events: AsyncStream<PipelineEvent>.Continuation
    /// Every known vehicle (entries written here and reloads change it).
    let vehicles: VehicleRegistry
    /// Named places: a place entry written here takes effect at the next fix.
    let places: PlaceRegistry
    let journal: JournalWriter
    /// Rewrites dashboard.json after a garage entry (nil without a `logbook` beside us).
    let dashboard: DashboardRefresher?
    /// `import.*`: imported trips, appended as they come (`logbook import`).
    let importer: ImportTripWriter

    var commands: [ControlCommand] { ControlCommand.builtIn + ControlCommand.garage + ImportTripWriter.commands }

    func currentState() -> JSONValue { state.snapshot.json }

    func execute(_ command: String, _ request: JSONValue) async -> Result<JSONValue, ControlError> {
        if let garage = EntryCommand.named(command) { return await write(garage, request) }
        if command.hasPrefix("import.") {
            let result = await importer.execute(command, request)
            if command == "import.record", case .success = result { dashboard?.request() }
            return result
        }
        let tripCommand: TripCommand
        switch command {
        case "trip.start":
            let vehicle = request["vehicle"]?.stringValue
            if let vehicle, vehicles.vehicle(vehicle) == nil {
                if vehicles.isRetired(vehicle) {
                    return .failure(ControlError(code: "retired_vehicle", message: "vehicle \(vehicle) is retired"))
                }
                let known = vehicles.activeIDs.sorted().joined(separator: ", ")
                return .failure(ControlError(code: "unknown_vehicle", message: "no vehicle \"\(vehicle)\" (known: \(known.isEmpty ? "none" : known))"))
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

    /// Validates the entry (its shape: the daemon holds no history to check it against, the
    /// clients do that against the index), appends it, and replies once it is durable.
    private func write(_ command: EntryCommand, _ request: JSONValue) async -> Result<JSONValue, ControlError> {
        let now = wallClockNow()
        let entry: RecordEntry
        do {
            entry = try command.draft(request, now: now).numbered(by: journal)
        } catch {
            return .failure(ControlError(code: error.code, message: error.message))
        }
        do {
            let user = UserEntry(entry, recordedAt: now)
            let sequence = try journal.append(.entry(user))
            vehicles.apply(entry)
            places.apply(user)
            try await journal.waitDurable(sequence)
            dashboard?.request()
            return .success(.object([
                ("ok", .bool(true)), ("seq", .number(Double(sequence))), ("type", .string(entry.type)),
                ("action", .string(entry.action.rawValue)), ("subject", .string(entry.subject)), ("fields", entry.fields),
            ]))
        } catch {
            return .failure(ControlError(code: "journal", message: "the entry was not recorded: \(error)"))
        }
    }
}
