// SPDX-License-Identifier: MIT
/// Errors the journal reports.
public enum JournalError: Error, CustomStringConvertible, Sendable, Hashable {
    /// Another process holds the writer lock.
    case locked(directory: String, pid: Int32?)
    /// A file operation failed.
    case io(JournalIOError)
    /// The writer is closed.
    case closed
    /// Commits keep failing and the in-memory backlog is full; appends are refused.
    case backlogFull(lastError: String)
    /// A commit failed; what the daemon should show.
    case commitFailed(String)
    /// The signing key could not be read or created.
    case key(String)
    /// A bug: state that should be impossible.
    case internalInconsistency(String)
    /// The configuration is out of range.
    case configuration(String)

    /// A one-line, human-readable description.
    public var description: String {
        switch self {
        case .locked(let dir, let pid):
            "journal at \(dir) is locked by another writer" + (pid.map { " (pid \($0))" } ?? "")
        case .io(let e): e.description
        case .closed: "the journal writer is closed"
        case .backlogFull(let e): "journal commits are failing (\(e)) and the in-memory backlog is full"
        case .commitFailed(let e): "journal commit failed: \(e)"
        case .key(let e): "journal signing key: \(e)"
        case .internalInconsistency(let e): "journal internal error: \(e)"
        case .configuration(let e): "journal configuration: \(e)"
        }
    }
}
