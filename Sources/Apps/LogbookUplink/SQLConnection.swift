// SPDX-License-Identifier: MIT

/// A database session as the PostgreSQL sink uses it; `LogbookPostgres` implements it over
/// libpq. Blocking: called from the sink's own thread only.
public protocol SQLConnection: AnyObject {
    /// Runs one statement with text parameters (`$1`…; nil is SQL NULL); returns the rows as
    /// text. Throws ``UplinkError/rejected(_:)`` for an SQL error, ``UplinkError/connection(_:)``
    /// when the connection is gone.
    @discardableResult
    func execute(_ sql: String, _ parameters: [String?]) throws(UplinkError) -> [[String?]]
    /// False once the connection has failed.
    var isHealthy: Bool { get }
    /// Runs `COPY … FROM STDIN` (`sql`) with `data` in the format `sql` names (the sink sends
    /// COPY's binary format). Throws like ``execute(_:_:)``.
    func copy(_ sql: String, data: [UInt8]) throws(UplinkError)
}

/// Opens ``SQLConnection``s (the sink reconnects through it after an outage).
public protocol SQLConnector: Sendable {
    func connect() throws(UplinkError) -> any SQLConnection
}
