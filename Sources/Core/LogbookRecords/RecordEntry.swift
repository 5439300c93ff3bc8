// SPDX-License-Identifier: MIT
public import LogbookCore

/// Something entered into the logbook, as the journal stores it: a vehicle, a fill-up, an
/// odometer reading, a service task, a named place, a trip's classification or a correction
/// of a trip — or a change to one. (`UserEntry` without the journal's types, so the web app
/// and the tests can use this module without linking the journal.)
///
/// What `fields` holds is one of the typed records (``VehicleRecord``, ``FuelRecord``, …), as
/// ``EntryRecord/fields`` encodes it; an amendment carries only the fields that changed. The
/// validator builds these; the daemon and the no-daemon CLI path both append exactly what it
/// built, so both paths write the same records.
public struct RecordEntry: Sendable, Hashable {
    /// Add, change or withdraw (the journal's `UserEntry.Action`).
    public enum Action: String, Sendable, Hashable {
        case add, amend, void
    }

    /// The record type, e.g. `vehicle`, `fuel`, `trip.void` (``EntryRecord/type``).
    public var type: String
    public var action: Action
    /// What it is about: a vehicle id, a fill-up's id, a trip number, a task or place id.
    public var subject: String
    /// The record's fields (an amendment holds only what changed).
    public var fields: JSONValue
    /// Who or what made it (``EntryOrigin``).
    public var origin: String

    public init(type: String, action: Action, subject: String, fields: JSONValue, origin: String) {
        self.type = type
        self.action = action
        self.subject = subject
        self.fields = fields
        self.origin = origin
    }
}

/// An entry read back with its place in the journal (the index's `entries` table).
public struct RecordedEntry: Sendable, Hashable {
    /// Journal sequence number: later amends earlier.
    public var sequence: UInt64
    public var entry: RecordEntry
    /// Wall-clock time of the entry (when it was made, not what it describes).
    public var recordedAt: GPSTime?

    public init(sequence: UInt64, entry: RecordEntry, recordedAt: GPSTime?) {
        self.sequence = sequence
        self.entry = entry
        self.recordedAt = recordedAt
    }
}

/// Who or what made an entry: shown in every history (`--history`, the web's history panel,
/// the report's list of changes).
public enum EntryOrigin {
    /// `logbook` on the command line.
    public static let cli = "cli"
    /// The web app.
    public static let web = "web"
    /// `[[vehicle]]` of the configuration file, journaled by logbookd at start.
    public static let config = "config"
    /// A classification rule.
    public static let rule = "rule"
    /// The car's OBD-II adapter.
    public static let obd = "obd"
    /// `logbook import` or `logbook fuel import`.
    public static let `import` = "import"
    /// A client of the control socket that did not say.
    public static let socket = "socket"
}

/// Why an entry is refused: a `code` for programs (the control socket's and the web API's
/// error codes) and one line for a person.
public struct EntryProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// `bad_request`, `unknown_vehicle`, `retired_vehicle`, `duplicate`, `odometer_backwards`,
    /// `unknown_entry`, `unknown_trip`, `not_consecutive`, `outside_trip`, `voided`.
    public var code: String
    public var message: String

    public init(_ code: String, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    /// A malformed or out-of-range field.
    package static func bad(_ message: String) -> EntryProblem { EntryProblem("bad_request", message) }
}
