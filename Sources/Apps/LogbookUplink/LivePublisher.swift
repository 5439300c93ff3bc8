// SPDX-License-Identifier: MIT
import LogbookCore
public import Logging
public import ServiceLifecycle
internal import LogbookPOSIX

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
    let defaultVehicle: String
    let logger: Logger
    /// While idle, the live state is published again after this long even without change.
    let heartbeat = 300.0
    /// The view is worked out again this often for the time that passes (service due dates).
    let refreshInterval = 60.0

    public init(transport: any MQTTTransport, topics: MQTTTopics, discoveryPrefix: String?, liveFile: String,
                interval: Double, shared: MQTTShared, defaultVehicle: String, logger: Logger) {
        self.transport = transport
        self.topics = topics
        self.discoveryPrefix = discoveryPrefix
        self.liveFile = liveFile
        self.interval = interval
        self.shared = shared
        self.defaultVehicle = defaultVehicle
        self.logger = logger
    }

    public func run() async throws {
        let signal = WorkerSignal()
        try await withTaskCancellationHandler {
            try await withGracefulShutdownHandler {
                try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
                    do {
                        try NamedThread.start(name: "lb-up-live") { [self] in
                            self.loop(signal)
                            self.transport.stop()
                            c.resume()
                        }
                    } catch { c.resume(throwing: UplinkError.system("\(error)")) }
                }
            } onGracefulShutdown: { signal.stop() }
        } onCancel: { signal.stop() }
    }

    /// Per-connection memory of what was published, so only changes go out.
    struct Published {
        var connection = -1
        /// What each vehicle's device was announced as; retired ones were removed.
        var discovered: [String: HADiscovery.VehicleInfo] = [:]
        var removed: Set<String> = []
        var liveKey: JSONValue?
        var liveAt = -Double.infinity
        var states: [String: JSONValue] = [:]
        var lastTrips: [String: JSONValue] = [:]
        var locations: [String: JSONValue] = [:]
        var places: [String: String] = [:]
    }

    func loop(_ signal: WorkerSignal) {
        var p = Published()
        var mtime: Int64?
        var live: JSONValue?
        var refreshedAt = MonotonicClock.seconds()
        while signal.sleep(0.25) {
            if MonotonicClock.seconds() - refreshedAt >= refreshInterval {
                shared.refresh()
                refreshedAt = MonotonicClock.seconds()
            }
            guard transport.isConnected else { continue }
            if transport.connectionCount != p.connection {
                p = Published()
                p.connection = transport.connectionCount
                send(topics.availability, "online", retain: true)
            }
            if let m = UplinkFile.modificationTime(liveFile), m != mtime {
                mtime = m
                if let bytes = try? UplinkFile.read(liveFile), let doc = try? JSONValue.parse(bytes) { live = doc }
            }
            let view = live.flatMap { LiveView(live: $0, defaultVehicle: defaultVehicle) }
            let (ledger, _) = shared.view
            let vehicles = vehicleList(ledger, live: view)
            if let prefix = discoveryPrefix { announce(vehicles, retired: ledger.vehicles.filter(\.retired).map(\.id), prefix: prefix, into: &p) }
            let now = MonotonicClock.seconds()
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
            // Journal-derived figures (a trip ended, an entry) change without live.json changing.
            publishVehicles(vehicles, view: view, ledger: ledger, into: &p, onlyLedgerChanges: true)
        }
    }

    /// Discovery for vehicles not announced yet or renamed; removal for retired ones.
    private func announce(_ vehicles: [HADiscovery.VehicleInfo], retired: [String], prefix: String, into p: inout Published) {
        for v in vehicles where p.discovered[v.id] != v {
            for m in HADiscovery.messages(for: v, topics: topics, discoveryPrefix: prefix) { send(m.topic, m.payload, retain: true) }
            p.discovered[v.id] = v
            p.removed.remove(v.id)
        }
        for id in retired where !p.removed.contains(id) && !vehicles.contains(where: { $0.id == id }) {
            for m in HADiscovery.removals(for: id, topics: topics, discoveryPrefix: prefix) { send(m.topic, m.payload, retain: true) }
            p.discovered[id] = nil
            p.removed.insert(id)
        }
    }

    private func publishVehicles(_ vehicles: [HADiscovery.VehicleInfo], view: LiveView?, ledger: LedgerView,
                                 into p: inout Published, onlyLedgerChanges: Bool = false) {
        for v in vehicles {
            let figures = ledger[v.id]
            let state = VehicleState.state(vehicle: v.id, live: view, figures: figures, through: ledger.through)
            if let lastTrip = VehicleState.lastTrip(figures), p.lastTrips[v.id] != lastTrip {
                send(topics.vehicleLastTrip(v.id), lastTrip.serialized, retain: true)
                p.lastTrips[v.id] = lastTrip
            }
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
            // The place the car arrived at names the tracker's state (`None`: HA's zones decide).
            if !onlyLedgerChanges, holder == v.id, let view, p.places[v.id] != (view.place ?? MQTTTopics.noPlace) {
                let place = view.place ?? MQTTTopics.noPlace
                send(topics.vehiclePlace(v.id), place, retain: true)
                p.places[v.id] = place
            }
        }
    }

    /// The registry's vehicles that are not retired, vehicles only trips name, and the one
    /// being driven. None is announced before it is known: a guessed default would leave a
    /// phantom device in Home Assistant.
    private func vehicleList(_ ledger: LedgerView, live: LiveView?) -> [HADiscovery.VehicleInfo] {
        var out = ledger.vehicles.filter { !$0.retired }.map(\.info)
        if let id = live?.tripVehicle, !ledger.vehicles.contains(where: { $0.id == id }) { out.append(HADiscovery.VehicleInfo(id: id, name: id)) }
        return out
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
            ("place", live["place"]?["name"] ?? .null),
        ])
    }

    private static func sameLedgerPart(_ a: JSONValue, _ b: JSONValue) -> Bool {
        guard case .object(let members) = b else { return false }
        let live: Set<String> = ["driving", "speed_kmh", "trip_id", "trip_distance_km", "trip_duration_min", "gps_time"]
        return members.allSatisfy { key, value in live.contains(key) || a[key] == value }
    }
}
