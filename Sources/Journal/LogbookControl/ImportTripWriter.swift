// SPDX-License-Identifier: MIT
package import LogbookCore
package import LogbookJournal
import Synchronization

/// Appends an imported history to the journal: the `import.*` commands of the control
/// socket (``ImportWire``), checked here, whoever sends them — logbookd for a client, or
/// `logbook import` itself holding the writer lock when no daemon runs. Both paths append
/// the same records:
///
/// - `trip started` with the reason `import:FORMAT` (every reader shows such a trip as
///   imported: reconstructed, not recorded at the time), boot id `import`, monotonic 0;
/// - its points; a `gps:no-fix` signal pair per stretch without positions;
/// - `trip ended` with the trip engine's figures;
/// - an `import` entry (origin `import`, subject the file's SHA-256) naming the file,
///   format, vehicle, trips and counts: the same content is never imported twice.
///
/// Memory: a few numbers per import trip being written (at most 8 at once); points go
/// straight to the journal. An import trip left open by a client that went away is closed
/// (discarded, `import:aborted`) when the next import begins a minute or more later.
package final class ImportTripWriter: Sendable {
    struct OpenImport {
        var vehicle: String?
        var lastTime: GPSTime?
        var points = 0
        var touched: Double
    }

    let journal: JournalWriter
    private let open = Mutex<[UInt64: OpenImport]>([:])
    private let clock: @Sendable () -> Double
    private let wallClock: @Sendable () -> GPSTime

    /// The commands, for the control socket.
    package static var commands: [ControlCommand] { ImportWire.commands }

    /// - Parameters:
    ///   - clock: seconds on a monotonic clock (tests pass their own).
    ///   - wallClock: now, for the `import` entry's `recorded_at`.
    package init(
        journal: JournalWriter, wallClock: @escaping @Sendable () -> GPSTime,
        clock: @escaping @Sendable () -> Double = { Double(monotonicNanoseconds()) / 1e9 }
    ) {
        self.journal = journal
        self.wallClock = wallClock
        self.clock = clock
    }

    /// Runs one `import.*` command; the reply members, or why not.
    package func execute(_ command: String, _ request: JSONValue) async -> Result<JSONValue, ControlError> {
        do {
            switch command {
            case "import.begin": return .success(try begin(request))
            case "import.points": return .success(try await points(request))
            case "import.gap": return .success(try gap(request))
            case "import.end": return .success(try await end(request))
            case "import.record": return .success(try await record(request))
            default: return .failure(ControlError(code: "unknown_command", message: "unknown command \"\(command)\""))
            }
        } catch let e as ControlError {
            return .failure(e)
        } catch {
            return .failure(ControlError(code: "journal", message: "not recorded: \(error)"))
        }
    }

    private func ok(_ seq: UInt64, _ extra: [(String, JSONValue)] = []) -> JSONValue {
        .object([("ok", .bool(true)), ("seq", .number(Double(seq)))] + extra)
    }

    private func time(_ request: JSONValue, _ key: String) throws(ControlError) -> GPSTime? {
        guard let text = request[key]?.stringValue else { return nil }
        guard let t = ISO8601.parse(text) else { throw ControlError(code: "bad_request", message: "\"\(key)\" must be an ISO 8601 UTC time, got \"\(text)\"") }
        return t
    }

    private func begin(_ request: JSONValue) throws -> JSONValue {
        let reason = request["reason"]?.stringValue ?? ""
        guard reason.hasPrefix("import:") else { throw ImportWire.bad("an imported trip starts with reason import:FORMAT, got \"\(reason)\"") }
        try ImportWire.checkReason(reason)
        let vehicle = request["vehicle"]?.stringValue
        if let v = vehicle, v.isEmpty || v.utf8.count > 64 { throw ImportWire.bad("\"vehicle\" must be 1 to 64 bytes") }
        let started = try time(request, "started_at")
        try closeAbandoned()
        let id = journal.nextTripID()
        let seq = try open.withLock { o throws(ControlError) -> UInt64 in
            guard o.count < 8 else { throw ControlError(code: "busy", message: "8 imported trips are being written already") }
            o[id.rawValue] = OpenImport(vehicle: vehicle, lastTime: nil, touched: clock())
            do {
                return try journal.append(.tripStarted(TripStarted(
                    id: id, vehicleID: vehicle, reason: reason, gpsTime: started, monotonicNanoseconds: 0, bootID: "import")))
            } catch {
                o[id.rawValue] = nil
                throw ControlError(code: "journal", message: "not recorded: \(error)")
            }
        }
        return ok(seq, [("trip", .number(Double(id.rawValue)))])
    }

    /// The open import trip `request` names, or a refusal.
    private func openTrip(_ request: JSONValue) throws(ControlError) -> (UInt64, OpenImport) {
        let id = try ImportWire.trip(request)
        guard let o = open.withLock({ $0[id] }) else {
            throw ControlError(code: "no_trip", message: "trip \(id) is not an imported trip being written")
        }
        return (id, o)
    }

    private func points(_ request: JSONValue) async throws -> JSONValue {
        let (id, o) = try openTrip(request)
        let points = try ImportWire.decode(request, after: o.lastTime)
        let seq = try journal.append(.points(TripID(id), points))
        open.withLock {
            $0[id]?.lastTime = points.last?.time
            $0[id]?.points += points.count
            $0[id]?.touched = clock()
        }
        try await journal.sync()
        return ok(seq)
    }

    private func gap(_ request: JSONValue) throws -> JSONValue {
        let (id, o) = try openTrip(request)
        guard let from = try time(request, "from"), let to = try time(request, "to"), from <= to else {
            throw ImportWire.bad("a gap needs \"from\" ≤ \"to\"")
        }
        _ = try journal.append(.signal(SignalEvent(source: "gps:no-fix", vehicleID: o.vehicle, on: true, gpsTime: from, monotonicNanoseconds: 0)))
        let seq = try journal.append(.signal(SignalEvent(source: "gps:no-fix", vehicleID: o.vehicle, on: false, gpsTime: to, monotonicNanoseconds: 0)))
        open.withLock { $0[id]?.touched = clock() }
        return ok(seq)
    }

    private func end(_ request: JSONValue) async throws -> JSONValue {
        let (id, o) = try openTrip(request)
        let reason = request["reason"]?.stringValue ?? ""
        try ImportWire.checkReason(reason)
        func number(_ k: String) throws(ControlError) -> Double {
            guard let d = request[k]?.doubleValue, d.isFinite, d >= 0 else { throw ImportWire.bad("\"\(k)\" must be a number ≥ 0") }
            return d
        }
        let count = try number("points")
        guard Int(count) == o.points else { throw ImportWire.bad("trip \(id) has \(o.points) points written, the end says \(Int(count))") }
        let summary = TripSummary(
            distance: try number("distance_m"), duration: try number("duration_s"), maxSpeed: try number("max_speed_mps"),
            averageSpeed: try number("avg_speed_mps"), pointCount: o.points)
        let seq = try journal.append(.tripEnded(TripEnded(
            id: TripID(id), reason: reason, gpsTime: try time(request, "ended_at") ?? o.lastTime, summary: summary,
            discarded: request["discarded"]?.boolValue ?? false, monotonicNanoseconds: 0)))
        _ = open.withLock { $0.removeValue(forKey: id) }
        try await journal.waitDurable(seq)
        return ok(seq)
    }

    private func record(_ request: JSONValue) async throws -> JSONValue {
        guard let hash = request["hash"]?.stringValue, hash.utf8.count == 64, hash.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }) else {
            throw ImportWire.bad("\"hash\" must be a SHA-256 in lower-case hex")
        }
        var fields = request
        if case .object(let members) = request { fields = .object(members.filter { $0.0 != "cmd" && $0.0 != "id" && $0.0 != "hash" }) }
        let seq = try journal.append(.entry(UserEntry(
            type: "import", action: .add, subject: hash, fields: fields, recordedAt: wallClock().nanoseconds, origin: "import")))
        try await journal.waitDurable(seq)
        return ok(seq)
    }

    /// Ends import trips nobody wrote to for a minute (their client went away).
    private func closeAbandoned() throws {
        let now = clock()
        let stale = open.withLock { o in
            let ids = o.filter { now - $0.value.touched >= 60 }
            for id in ids.keys { o[id] = nil }
            return ids
        }
        for (id, o) in stale {
            try journal.append(.tripEnded(TripEnded(
                id: TripID(id), reason: "import:aborted", gpsTime: o.lastTime, summary: TripSummary(
                    distance: 0, duration: 0, maxSpeed: 0, averageSpeed: 0, pointCount: o.points),
                discarded: true, monotonicNanoseconds: 0)))
        }
    }
}
