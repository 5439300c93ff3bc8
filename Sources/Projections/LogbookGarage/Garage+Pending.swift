// SPDX-License-Identifier: MIT
public import LogbookCore
public import LogbookRecords

/// A fill-up the OBD source noticed, and what became of it.
public struct PendingFill: Sendable, Hashable {
    public enum State: String, Sendable {
        /// Waiting for a person to give the price.
        case open
        /// A fuel log names it (``FuelRecord/pending``): ``PendingFill/completedBy``.
        case completed
        /// Dismissed (`fuel.dismiss`): not a fill-up, or logged otherwise.
        case dismissed
    }

    /// Its subject: `<vehicle>@<compact UTC time>`.
    public var id: String
    public var record: PendingFillRecord
    public var state: State
    /// The fuel log that completed it.
    public var completedBy: String?
    /// The journal entries about it, oldest first.
    public var history: [RecordedEntry]

    public var vehicle: String? { record.vehicle }
    public var at: GPSTime { record.at }

    /// The `fuel pending --json` and web API form.
    public var json: JSONValue {
        var m: [(String, JSONValue)] = [("id", .string(id))]
        if case .object(let fields) = record.fields { m += fields }
        m += [("state", .string(state.rawValue)), ("completed_by", .string(completedBy)), ("origin", .string(history.first?.entry.origin))]
        return .object(m)
    }
}

extension Garage {
    /// Every pending fill-up, in journal order, with its state: a fuel log that is not void
    /// and names it completes it (voiding that log opens it again); a void dismisses it.
    public var pendingFills: [PendingFill] {
        var completions: [String: String] = [:]
        for log in fuelLogs where !log.voided {
            if let p = log.record.pending, completions[p] == nil { completions[p] = log.id }
        }
        return pendingFold.items.map { item in
            let by = completions[item.id]
            let state: PendingFill.State = item.voided ? .dismissed : by != nil ? .completed : .open
            return PendingFill(id: item.id, record: item.record, state: state, completedBy: by, history: item.history)
        }
    }

    /// The pending fill-up `id` while it waits; otherwise why not (`unknown_entry`).
    public func openPendingFill(_ id: String) throws(EntryProblem) -> PendingFill {
        guard let p = pendingFills.first(where: { $0.id == id }) else { throw EntryProblem("unknown_entry", "no pending fill-up \(id)") }
        switch p.state {
        case .open: return p
        case .completed: throw EntryProblem("unknown_entry", "pending fill-up \(id) was completed by fuel log \(p.completedBy ?? "?")")
        case .dismissed: throw EntryProblem("unknown_entry", "pending fill-up \(id) was dismissed")
        }
    }
}
