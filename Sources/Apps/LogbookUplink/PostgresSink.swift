// SPDX-License-Identifier: MIT
import LogbookCore
public import LogbookJournal
public import LogbookRecords
public import Logging
import Synchronization

/// Writes the journal into the fleet's PostgreSQL: schema migrated at connect, the device
/// registered with its public key, then one transaction per batch; the runner advances the
/// cursor only after `COMMIT` returned. Re-delivered batches change nothing (`ON CONFLICT`).
public final class PostgresSink: UplinkSink {
    public let name = "postgres"
    let connector: any SQLConnector
    let device: DeviceIdentity
    let vehicles: [ConfiguredVehicle]
    let defaultVehicle: String
    let reconnectMax: Double
    let logger: Logger
    private struct State {
        var error: String?
        var connected = false
        var backoff = 0.5
    }
    private let state = Mutex(State())
    // Safety: the connection is used only from the runner's thread (becomeReady/deliver).
    nonisolated(unsafe) private var connection: (any SQLConnection)?

    public init(connector: any SQLConnector, device: DeviceIdentity, vehicles: [ConfiguredVehicle], defaultVehicle: String = "car",
                reconnectMax: Double = 30, logger: Logger) {
        self.connector = connector
        self.device = device
        self.vehicles = vehicles
        self.defaultVehicle = defaultVehicle
        self.reconnectMax = reconnectMax
        self.logger = logger
    }

    public var isConnected: Bool { state.withLock { $0.connected } }
    public var lastError: String? { state.withLock { $0.error } }

    public func becomeReady() -> Bool {
        if let c = connection, c.isHealthy { return true }
        connection = nil
        do {
            let c = try connector.connect()
            try prepare(c)
            connection = c
            state.withLock {
                $0.connected = true
                $0.backoff = 1
            }
            logger.info("fleet store connected", metadata: ["device": "\(device.id)", "schema": "\(FleetSchema.version)"])
            return true
        } catch {
            note(error)
            state.withLock { s in
                s.connected = false
                // A device id taken by another journal will not fix itself soon.
                if case .identity = error { s.backoff = reconnectMax } else { s.backoff = min(reconnectMax, s.backoff * 2) }
            }
            return false
        }
    }

    /// Doubles from 1 s to `reconnect_max_s` while the database cannot be reached.
    public var retryDelay: Double { state.withLock { $0.backoff } }

    /// Migrates the schema, registers the device (refusing a device id that belongs to
    /// another journal key) and the vehicle registry.
    func prepare(_ c: any SQLConnection) throws(UplinkError) {
        try FleetSchema.migrate(c)
        try c.execute(FleetBatch.createStage, [])
        let key = "\\x" + Hex.encode(device.publicKey)
        try c.execute("INSERT INTO devices (device_id, public_key) VALUES ($1, $2::bytea) ON CONFLICT (device_id) DO NOTHING",
                      [device.id, key])
        let rows = try c.execute("SELECT encode(public_key, 'hex') FROM devices WHERE device_id = $1", [device.id])
        guard let stored = rows.first?.first ?? nil, stored == Hex.encode(device.publicKey) else {
            throw .identity("device_id \(device.id) already belongs to another journal key in the fleet store")
        }
        try FleetEvents.syncVehicles(c, device: device.id, configured: vehicles)
    }

    public func deliver(_ items: [JournalItem], signal: WorkerSignal) throws(UplinkError) {
        guard let c = connection else { throw .connection("not connected") }
        do {
            try c.execute("BEGIN", [])
            // One writer per device at a time; then: can any point of this batch exist already?
            try c.execute("SELECT pg_advisory_xact_lock(hashtext($1))", [device.id])
            let stored = try c.execute("SELECT coalesce(max(seq), 0) FROM points WHERE device_id = $1", [device.id])
            let highest = UInt64(stored.first?.first.flatMap { $0 }.flatMap { UInt64($0) } ?? 0)
            let direct = Self.firstPointSequence(items).map { $0 > highest } ?? false
            for s in FleetBatch.statements(for: items, device: device.id, direct: direct) {
                if let rows = s.copyData { try c.copy(s.sql, data: rows) } else { try c.execute(s.sql, s.parameters) }
            }
            try afterBatch(items, c)
            try c.execute("COMMIT", [])
            state.withLock { $0.error = nil }
        } catch {
            _ = try? c.execute("ROLLBACK", [])
            note(error)
            if !c.isHealthy {
                connection = nil
                state.withLock { $0.connected = false }
            }
            throw error
        }
    }

    /// The sequence of the batch's first point; nil without points. A rewind in the batch
    /// means rows above it are replaced: never direct then.
    static func firstPointSequence(_ items: [JournalItem]) -> UInt64? {
        var first: UInt64?
        for item in items {
            if case .rewound = item { return nil }
            if first == nil, case .entry(let e) = item, case .points = e.record { first = e.sequence }
        }
        return first
    }

    /// What follows from a batch's entries, in its transaction: the registry after a `vehicle`
    /// entry, the trips as corrected after a trip correction or a rewind.
    private func afterBatch(_ items: [JournalItem], _ c: any SQLConnection) throws(UplinkError) {
        if FleetEvents.changesVehicles(items) { try FleetEvents.syncVehicles(c, device: device.id, configured: vehicles) }
        if FleetCorrections.needed(items) { try FleetCorrections.sync(c, device: device.id, defaultVehicle: defaultVehicle) }
    }

    private func note(_ error: UplinkError) {
        let changed = state.withLock { s -> Bool in
            defer { s.error = error.description }
            return s.error != error.description
        }
        if changed { logger.warning("fleet store unavailable", metadata: ["error": "\(error)"]) }
    }
}
