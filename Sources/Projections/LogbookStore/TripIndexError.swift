// SPDX-License-Identifier: MIT
/// What can go wrong with the trip index. Every case reads as one line for a person.
public enum TripIndexError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The index file cannot be created or opened (path, reason), e.g. a permission problem.
    case unusable(String, String)
    /// The file holds something the index cannot trust: not SQLite, another application's
    /// database, a schema this version does not know, or a damaged page or chunk. Opening
    /// rebuilds it; a query that meets damage throws this so the caller can rebuild.
    case damaged(String)
    /// Another process holds the index's write lock (a rebuild) for longer than the wait.
    case busy(String)
    /// The journal cannot be read.
    case journal(String)

    public var description: String {
        switch self {
        case .unusable(let path, let why): "cannot use the trip index at \(path): \(why)"
        case .damaged(let why): "the trip index is damaged or foreign: \(why)"
        case .busy(let path): "the trip index at \(path) is locked by another process (a rebuild?)"
        case .journal(let why): "cannot read the journal: \(why)"
        }
    }
}
