// SPDX-License-Identifier: MIT
public import LogbookCore
public import LogbookJournal
import Synchronization

/// What the MQTT sink and the live publisher share: the vehicle ledger (updated when a batch
/// is acknowledged) and the vehicles known so far.
public final class MQTTShared: Sendable {
    struct State {
        var ledger = VehicleLedger()
        var version = 0
    }
    private let state = Mutex(State())

    public init() {}

    /// The ledger and a version that changes with it.
    public var ledger: (VehicleLedger, Int) { state.withLock { ($0.ledger, $0.version) } }

    func replace(_ ledger: VehicleLedger) {
        state.withLock { s in
            if s.ledger != ledger {
                s.ledger = ledger
                s.version += 1
            }
        }
    }
}

/// Publishes the journal to the broker: point batches, events and checkpoints, QoS 1.
/// A batch counts as delivered once the broker acknowledged every message of it.
public final class MQTTSink: UplinkSink {
    public let name = "mqtt"
    let transport: any MQTTTransport
    let payloads: MQTTPayloads
    let qos: Int
    let shared: MQTTShared
    let defaultVehicle: String
    /// How long a connected broker may leave a message unacknowledged before the batch is
    /// sent again (a disconnect in between is waited out: the client resends by itself).
    let acknowledgementTimeout: Double

    public init(transport: any MQTTTransport, topics: MQTTTopics, pointsPerMessage: Int, qos: Int, shared: MQTTShared,
                defaultVehicle: String, acknowledgementTimeout: Double = 60) {
        self.transport = transport
        self.payloads = MQTTPayloads(topics: topics, pointsPerMessage: pointsPerMessage)
        self.qos = qos
        self.shared = shared
        self.defaultVehicle = defaultVehicle
        self.acknowledgementTimeout = acknowledgementTimeout
    }

    public var isConnected: Bool { transport.isConnected }
    public var lastError: String? { transport.lastError }

    /// The transport reconnects by itself (with its own backoff); this only looks.
    public func becomeReady() -> Bool { transport.isConnected }
    public var retryDelay: Double { 0.1 }

    public func deliver(_ items: [JournalItem], signal: WorkerSignal) throws(UplinkError) {
        var pending = Set<Int32>()
        for m in payloads.messages(for: items) {
            pending.insert(try transport.publish(topic: m.topic, payload: Array(m.payload.utf8), qos: qos, retain: m.retain))
        }
        var quietSince = UplinkClock.monotonic()
        while !pending.isEmpty {
            let before = pending.count
            pending = transport.waitForAcknowledgements(pending, timeout: 1, signal: signal)
            if signal.isStopped { throw .stopped }
            let now = UplinkClock.monotonic()
            if pending.count < before || !transport.isConnected { quietSince = now }
            if now - quietSince > acknowledgementTimeout {
                throw .connection("broker did not acknowledge \(pending.count) message(s) within \(Int(acknowledgementTimeout)) s")
            }
        }
        var (ledger, _) = shared.ledger
        for case .entry(let e) in items { ledger.apply(e.record, defaultVehicle: defaultVehicle) }
        shared.replace(ledger)
    }

    public func savedState() -> JSONValue { .object([("ledger", shared.ledger.0.json)]) }

    public func restore(_ state: JSONValue) {
        if let j = state["ledger"] { shared.replace(VehicleLedger(json: j)) }
    }
}
