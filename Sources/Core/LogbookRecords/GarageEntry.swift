// SPDX-License-Identifier: MIT
public import LogbookCore

/// A garage entry as the journal stores it (`UserEntry` without the journal's types, so the
/// web app and the tests can use this module without linking the journal).
///
/// The validator builds these; the daemon and the no-daemon CLI path both append exactly
/// what it built, so both paths write the same records.
public struct GarageEntry: Sendable, Hashable {
    /// Add, change or withdraw (the journal's `UserEntry.Action`).
    public enum Action: String, Sendable, Hashable {
        case add, amend, void
    }

    /// `vehicle`, `fuel`, `trip.class` or `odometer`.
    public var type: String
    public var action: Action
    /// The vehicle id, fuel log id, trip number or reading id.
    public var subject: String
    /// The fields of ``GarageFields`` for `type` (an amendment holds only what changed).
    public var fields: JSONValue
    /// Who made it: `cli`, `web`, `socket`, `config`, `import`.
    public var origin: String

    public init(type: String, action: Action, subject: String, fields: JSONValue, origin: String) {
        self.type = type
        self.action = action
        self.subject = subject
        self.fields = fields
        self.origin = origin
    }
}

/// A garage entry read back with its journal position (the index's `entries` table).
public struct RecordedGarageEntry: Sendable, Hashable {
    /// Journal sequence number: later amends earlier.
    public var sequence: UInt64
    public var entry: GarageEntry
    /// Wall-clock time of the entry (when it was made, not what it describes).
    public var recordedAt: GPSTime?

    public init(sequence: UInt64, entry: GarageEntry, recordedAt: GPSTime?) {
        self.sequence = sequence
        self.entry = entry
        self.recordedAt = recordedAt
    }
}

/// Why an entry is refused: a `code` for programs (the control socket's error codes) and one
/// line for a person.
public struct GarageProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// `bad_request`, `unknown_vehicle`, `retired_vehicle`, `duplicate`, `odometer_backwards`,
    /// `unknown_entry`, `unknown_trip`.
    public var code: String
    public var message: String

    public init(_ code: String, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    package static func bad(_ message: String) -> GarageProblem { GarageProblem("bad_request", message) }
}
