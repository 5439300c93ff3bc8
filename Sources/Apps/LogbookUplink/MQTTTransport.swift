// SPDX-License-Identifier: MIT

/// An MQTT client connection as the sinks use it; `LogbookMQTT` implements it over
/// libmosquitto (whose network loop runs on a thread of its own).
public protocol MQTTTransport: AnyObject, Sendable {
    /// Starts connecting in the background; reconnects with backoff for as long as it runs.
    func start() throws(UplinkError)
    /// Connected to the broker right now.
    var isConnected: Bool { get }
    /// Successful connections so far: a change tells publishers to announce again
    /// (availability, discovery, retained state).
    var connectionCount: Int { get }
    /// The most recent connection problem.
    var lastError: String? { get }
    /// Queues a message; returns its message id.
    func publish(topic: String, payload: [UInt8], qos: Int, retain: Bool) throws(UplinkError) -> Int32
    /// Waits until every id in `ids` has been acknowledged (PUBACK), `timeout` seconds pass
    /// or `signal` stops; returns the ids still unacknowledged.
    func waitForAcknowledgements(_ ids: Set<Int32>, timeout: Double, signal: WorkerSignal) -> Set<Int32>
    /// Publishes `offline` to the availability topic, disconnects and stops the loop.
    func stop()
}
