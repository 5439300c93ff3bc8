// SPDX-License-Identifier: MIT
public import LogbookCore
public import Logging
public import ServiceLifecycle

/// Publishes what Home Assistant and dashboards show now: availability, discovery, the live
/// state (retained; at most every `interval` while driving, on change when idle) and the
/// per-vehicle state and location. Reads the daemon's `live.json` on a thread of its own.
///
/// It owns the connection's lifetime: when it stops, the transport publishes `offline` and
/// disconnects (so start it before the sink in a `ServiceGroup`: it stops last).
public final class LivePublisher: Service, Sendable {
    let transport: any MQTTTransport
    let topics: MQTTTopics
    let discoveryPrefix: String?
    let liveFile: String
    let interval: Double
    let shared: MQTTShared
    let configured: [Vehicle]
    let defaultVehicle: String
    let logger: Logger
    /// While idle, the live state is published again after this long even without change.
    let heartbeat = 300.0

    public init(transport: any MQTTTransport, topics: MQTTTopics, discoveryPrefix: String?, liveFile: String,
                interval: Double, shared: MQTTShared, vehicles: [Vehicle], defaultVehicle: String, logger: Logger) {
        self.transport = transport
        self.topics = topics
        self.discoveryPrefix = discoveryPrefix
        self.liveFile = liveFile
        self.interval = interval
        self.shared = shared
        self.configured = vehicles
        self.defaultVehicle = defaultVehicle
        self.logger = logger
    }

    public func run() async throws {
        let signal = WorkerSignal()
        try await withTaskCancellationHandler {
            try await withGracefulShutdownHandler {
                try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
                    do {
                        try WorkerThread.start { [self] in
                            self.loop(signal)
                            self.transport.stop()
                            c.resume()
                        }
                    } catch { c.resume(throwing: error) }
                }
            } onGracefulShutdown: { signal.stop() }
        } onCancel: { signal.stop() }
    }

    /// Per-connection memory of what was published, so only changes go out.
    struct Published {
        var connection = -1
        var discovered: Set<String> = []
        var liveKey: JSONValue?
        var liveAt = -Double.infinity
        var states: [String: JSONValue] = [:]
        var locations: [String: JSONValue] = [:]
    }

    func loop(_ signal: WorkerSignal) {
        var p = Published()
        var mtime: Int64?
        var live: JSONValue?
        while signal.sleep(0.25) {
            guard transport.isConnected else { continue }
            if transport.connectionCount != p.connection {
                p = Published()
                p.connection = transport.connectionCount
                send(topics.availability, "online", retain: true)
            }
            if let m = AtomicFile.modificationTime(liveFile), m != mtime {
                mtime = m
                if let bytes = try? AtomicFile.read(liveFile), let doc = try? JSONValue.parse(bytes) { live = doc }
            }
            let view = live.flatMap { LiveView(live: $0, defaultVehicle: defaultVehicle) }
            let (ledger, _) = shared.ledger
            let vehicles = vehicleList(ledger: ledger, live: view)
            if let prefix = discoveryPrefix {
                for v in vehicles where !p.discovered.contains(v.id) {
                    for m in HADiscovery.messages(for: v, topics: topics, discoveryPrefix: prefix) {
                        send(m.topic, m.payload, retain: true)
                    }
                    p.discovered.insert(v.id)
                }
            }
            let now = UplinkClock.monotonic()
            let driving = view?.driving ?? false
            let due = driving ? now - p.liveAt >= interval : now - p.liveAt >= heartbeat
            if let live, let view {
                let key = Self.idleKey(live)
                if due || (!driving && key != p.liveKey) {
                    send(topics.live, Self.withDevice(live, topics.device).serialized, retain: true)
                    p.liveKey = key
                    p.liveAt = now
                    publishVehicles(vehicles, view: view, ledger: ledger, into: &p)
                }
            }
            if view == nil { publishVehicles(vehicles, view: nil, ledger: ledger, into: &p) }
            // Journal-derived figures (a trip ended) change without live.json changing.
            publishVehicles(vehicles, view: view, ledger: ledger, into: &p, onlyLedgerChanges: true)
        }
    }

    private func publishVehicles(_ vehicles: [HADiscovery.VehicleInfo], view: LiveView?, ledger: VehicleLedger,
                                 into p: inout Published, onlyLedgerChanges: Bool = false) {
        for v in vehicles {
            let state = VehicleState.state(vehicle: v.id, live: view, ledger: ledger)
            if onlyLedgerChanges, let old = p.states[v.id], Self.sameLedgerPart(old, state) { continue }
            if p.states[v.id] != state {
                send(topics.vehicleState(v.id), state.serialized, retain: true)
                p.states[v.id] = state
            }
            // The position belongs to the car being driven, or when idle to the last one driven.
            let holder = view?.tripVehicle ?? ledger.lastVehicle ?? vehicles.first?.id
            if !onlyLedgerChanges, holder == v.id, let view, let loc = VehicleState.location(view), p.locations[v.id] != loc {
                send(topics.vehicleLocation(v.id), loc.serialized, retain: true)
                p.locations[v.id] = loc
            }
        }
    }

    private func vehicleList(ledger: VehicleLedger, live: LiveView?) -> [HADiscovery.VehicleInfo] {
        var ids = configured.map(\.id)
        for id in ledger.ids + [live?.tripVehicle].compactMap({ $0 }) where !ids.contains(id) { ids.append(id) }
        // No vehicle is announced before one is known (configured, in the journal or driving):
        // a guessed default would leave a phantom device in Home Assistant.
        return ids.map { id in
            let c = configured.first { $0.id == id }
            let f = ledger.vehicles[id]
            return HADiscovery.VehicleInfo(id: id, name: f?.name ?? c?.name ?? id, make: f?.make ?? c?.make,
                                           model: f?.model ?? c?.model)
        }
    }

    private func send(_ topic: String, _ payload: String, retain: Bool) {
        do { _ = try transport.publish(topic: topic, payload: Array(payload.utf8), qos: 1, retain: retain) } catch {
            logger.debug("publish failed", metadata: ["topic": "\(topic)", "error": "\(error)"])
        }
    }

    /// The live document with `device_id` first.
    static func withDevice(_ live: JSONValue, _ device: String) -> JSONValue {
        guard case .object(let members) = live else { return live }
        return .object([("device_id", .string(device))] + members.filter { $0.0 != "device_id" })
    }

    /// What counts as a change while idle: the trip blocks, the connection, the fix mode, the
    /// Pi's supply (under-voltage, throttling) and the position to about 10 m (a parked
    /// receiver's jitter and clock are not news).
    static func idleKey(_ live: JSONValue) -> JSONValue {
        let gps = live["gps"]
        func rounded(_ v: Double?) -> JSONValue { .number(v.map { ($0 * 1e4).rounded() / 1e4 }) }
        return .object([
            ("trip", live["trip"] ?? .null), ("last_trip", live["last_trip"] ?? .null),
            ("connected", gps?["connected"] ?? .null), ("mode", gps?["mode"] ?? .null),
            ("power", live["power"]?["status"] ?? .null), ("power_since_boot", live["power"]?["since_boot"] ?? .null),
            ("lat", rounded(gps?["lat"]?.doubleValue)), ("lon", rounded(gps?["lon"]?.doubleValue)),
        ])
    }

    private static func sameLedgerPart(_ a: JSONValue, _ b: JSONValue) -> Bool {
        ["odometer_km", "logged_km", "last_trip_distance_km", "last_trip_duration_min", "last_trip_end"].allSatisfy { a[$0] == b[$0] }
    }
}
