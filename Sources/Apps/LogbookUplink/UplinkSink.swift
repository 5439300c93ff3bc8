// SPDX-License-Identifier: MIT
public import LogbookCore
public import LogbookJournal

/// A destination for the journal: the MQTT broker or the fleet's PostgreSQL.
///
/// All methods block and are called from the sink's own thread (``SinkRunner``), never from
/// the Swift concurrency pool. `deliver` returns only once the destination has acknowledged
/// (PUBACK) or committed the whole batch; the runner advances the cursor after that.
public protocol UplinkSink: AnyObject, Sendable {
    /// `mqtt` or `postgres`: names the cursor and status files.
    var name: String { get }
    /// One step towards delivering (connect, migrate): true when a batch can go now. When
    /// false, the runner reports its status and asks again after ``retryDelay``.
    func becomeReady() -> Bool
    /// Seconds to wait after a false ``becomeReady()`` (the sink's backoff).
    var retryDelay: Double { get }
    /// Delivers `items` in order; idempotent on `(device_id, seq)`.
    func deliver(_ items: [JournalItem], signal: WorkerSignal) throws(UplinkError)
    /// Whether the destination is reachable right now (for the status).
    var isConnected: Bool { get }
    /// The most recent connection problem, if any.
    var lastError: String? { get }
    /// State derived from delivered records, saved with the cursor.
    func savedState() -> JSONValue
    /// Restores ``savedState()`` at start.
    func restore(_ state: JSONValue)
}

extension UplinkSink {
    public func savedState() -> JSONValue { .null }
    public func restore(_ state: JSONValue) {}
}
