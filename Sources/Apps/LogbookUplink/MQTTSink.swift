// SPDX-License-Identifier: MIT
public import LogbookCore
public import LogbookJournal
import LogbookRecords

/// Publishes the journal to the broker: point batches, events and checkpoints, QoS 1.
/// A batch counts as delivered once the broker acknowledged every message of it.
///
/// It keeps the vehicle ledger Home Assistant's sensors are made from: folded from the
/// acknowledged records, saved in `ledgerFile` when it changes (a trip started or ended, an
/// entry), rebuilt from the journal when that file is missing or behind the cursor.
public final class MQTTSink: UplinkSink {
    public let name = "mqtt"
    let transport: any MQTTTransport
    let payloads: MQTTPayloads
    let qos: Int
    let shared: MQTTShared
    let defaultVehicle: String
    let journalDirectory: String
    let ledgerFile: String?
    let deviceID: String
    /// How long a connected broker may leave a message unacknowledged before the batch is
    /// sent again (a disconnect in between is waited out: the client resends by itself).
    let acknowledgementTimeout: Double

    public init(transport: any MQTTTransport, topics: MQTTTopics, pointsPerMessage: Int, qos: Int, shared: MQTTShared,
                defaultVehicle: String, journalDirectory: String = "", ledgerFile: String? = nil, acknowledgementTimeout: Double = 60) {
        self.transport = transport
        self.payloads = MQTTPayloads(topics: topics, pointsPerMessage: pointsPerMessage)
        self.qos = qos
        self.shared = shared
        self.defaultVehicle = defaultVehicle
        self.journalDirectory = journalDirectory
        self.ledgerFile = ledgerFile
        self.deviceID = topics.device
        self.acknowledgementTimeout = acknowledgementTimeout
    }

    public var isConnected: Bool { transport.isConnected }
    public var lastError: String? { transport.lastError }

    /// The transport reconnects by itself (with its own backoff); this only looks.
    public func becomeReady() -> Bool { transport.isConnected }
    public var retryDelay: Double { 0.1 }

    public func deliver(_ items: [JournalItem], signal: WorkerSignal) throws(UplinkError) {
        var (ledger, _) = shared.ledger
        // Correction events carry the trips' state after the correction: fold as they are built.
        var working = ledger
        let messages = payloads.messages(for: items) { entry in
            working.apply(entry, defaultVehicle: defaultVehicle)
            return TripCorrectionEvent.json(entry, base: payloads.event(entry), ledger: working)
        }
        var pending = Set<Int32>()
        for m in messages {
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
        var changed = false
        for item in items {
            switch item {
            case .entry(let e): changed = ledger.apply(e, defaultVehicle: defaultVehicle) || changed
            case .rewound(_, let to):
                ledger.rewind(to: to)
                changed = true
            case .checkpoint: break
            }
        }
        guard changed else { return }
        measureParts(&ledger)
        shared.replace(ledger)
        saveLedger(ledger)
    }

    /// The cursor names the sequence the ledger file had reached.
    public func savedState() -> JSONValue {
        .object([("ledger_through", .string(String(shared.ledger.0.through)))])
    }

    /// Loads the ledger file; rebuilds the ledger from the journal when the file is missing,
    /// damaged, of another device or behind the cursor. Without a cursor (the first run, or a
    /// new journal) the ledger starts empty with the journal.
    public func restore(_ state: JSONValue) {
        guard !state.isNull else { return }
        let wanted = state["ledger_through"]?.stringValue.flatMap { UInt64($0) } ?? .max
        if let file = ledgerFile, let bytes = try? AtomicFile.read(file), let json = try? JSONValue.parse(bytes),
            json["device_id"]?.stringValue == deviceID, let saved = json["ledger"].flatMap(VehicleLedger.init(json:)),
            saved.through >= wanted
        {
            shared.replace(saved)
            return
        }
        var ledger = VehicleLedger()
        try? JournalReadGate.serialized {
            try JournalReader(directory: journalDirectory).forEach { e in
                ledger.apply(e, defaultVehicle: defaultVehicle)
                return true
            }
        }
        measureParts(&ledger)
        shared.replace(ledger)
        saveLedger(ledger)
    }

    /// Measures the parts of split trips from the journal's points (once: the ledger keeps them).
    private func measureParts(_ ledger: inout VehicleLedger) {
        let parts = ledger.unmeasuredParts(ledger.corrections)
        guard !parts.isEmpty else { return }
        var points: [TripID: [TripPoint]] = [:]
        for part in parts {
            if points[part.source] == nil {
                points[part.source] = (try? JournalReadGate.serialized {
                    try JournalReader(directory: journalDirectory).points(of: part.source)
                }) ?? []
            }
            ledger.measure(part, points: points[part.source] ?? [])
        }
    }

    private func saveLedger(_ ledger: VehicleLedger) {
        guard let file = ledgerFile else { return }
        let json = JSONValue.object([("device_id", .string(deviceID)), ("ledger", ledger.json)])
        // Not fatal: a missing or stale file means the ledger is rebuilt from the journal.
        try? AtomicFile.write(Array((json.serialized + "\n").utf8), to: file)
    }
}
