// SPDX-License-Identifier: MIT

/// Why the uplink or one of its sinks could not do something. The message is what a person
/// reads in `logbook uplink status` and in the unit's journal.
public enum UplinkError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A file or system call failed.
    case system(String)
    /// The broker or database could not be reached or refused.
    case connection(String)
    /// The broker or database took the request but failed it.
    case rejected(String)
    /// Shutdown was requested while waiting.
    case stopped
    /// The fleet store holds this device id for a different journal key.
    case identity(String)

    public var description: String {
        switch self {
        case .system(let m), .connection(let m), .rejected(let m), .identity(let m): m
        case .stopped: "stopped"
        }
    }
}
