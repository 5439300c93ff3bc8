// SPDX-License-Identifier: MIT
internal import CLogbookMosquitto
public import LogbookUplink
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

/// How to reach the broker.
public struct MosquittoOptions: Sendable {
    public var host: String
    public var port: Int
    public var clientID: String
    public var username: String?
    public var password: String?
    /// TLS with this CA bundle when set.
    public var caFile: String?
    public var certFile: String?
    public var keyFile: String?
    public var keepalive: Int
    /// The last will: `offline`, retained, on this topic.
    public var availabilityTopic: String
    /// Longest pause between reconnect attempts (seconds; backoff doubles from 1 s).
    public var reconnectMax: Int

    public init(host: String, port: Int, clientID: String, username: String? = nil, password: String? = nil,
                caFile: String? = nil, certFile: String? = nil, keyFile: String? = nil, keepalive: Int = 60,
                availabilityTopic: String, reconnectMax: Int = 30) {
        self.host = host
        self.port = port
        self.clientID = clientID
        self.username = username
        self.password = password
        self.caFile = caFile
        self.certFile = certFile
        self.keyFile = keyFile
        self.keepalive = keepalive
        self.availabilityTopic = availabilityTopic
        self.reconnectMax = reconnectMax
    }
}

/// An MQTT connection through libmosquitto: its network loop (connect, reconnect with
/// backoff, resending unacknowledged QoS 1 messages) runs on libmosquitto's own thread.
public final class MosquittoClient: MQTTTransport, @unchecked Sendable {
    // Safety: `handle` runs its network loop on libmosquitto's thread (mosquitto_loop_start),
    // and libmosquitto locks its own queues for publish from other threads; the callbacks
    // only touch `state` (a Mutex) and `bell`.
    private let handle: OpaquePointer
    private let options: MosquittoOptions
    private let bell = WorkerSignal()
    struct State {
        var connected = false
        var count = 0
        var error: String?
        var acked = Set<Int32>()
        var ackOrder: [Int32] = []
        var stopped = false
    }
    private let state = Mutex(State())

    /// Creates the client (no connection yet: see ``start()``).
    public init(_ options: MosquittoOptions) throws(UplinkError) {
        _ = Self.library
        self.options = options
        guard let h = mosquitto_new(options.clientID, false, nil) else {
            throw .system("mosquitto_new failed: \(String(cString: strerror(errno)))")
        }
        handle = h
        mosquitto_user_data_set(h, Unmanaged.passUnretained(self).toOpaque())
        _ = cmosq_set_protocol_v311(h)
        _ = cmosq_set_max_inflight(h, 100)
        mosquitto_connect_callback_set(h) { _, obj, rc in MosquittoClient.from(obj)?.connected(Int32(rc)) }
        mosquitto_disconnect_callback_set(h) { _, obj, rc in MosquittoClient.from(obj)?.disconnected(Int32(rc)) }
        mosquitto_publish_callback_set(h) { _, obj, mid in MosquittoClient.from(obj)?.acknowledged(mid) }
        mosquitto_reconnect_delay_set(h, 1, UInt32(max(1, options.reconnectMax)), true)
        // A throw from here on still runs deinit, which destroys the handle.
        try check(mosquitto_will_set(h, options.availabilityTopic, 7, "offline", 1, true), "will")
        if options.username != nil || options.password != nil {
            try check(mosquitto_username_pw_set(h, options.username, options.password), "username")
        }
        if let ca = options.caFile {
            try check(mosquitto_tls_set(h, ca, nil, options.certFile, options.keyFile, nil), "tls (ca_file \(ca))")
        }
    }

    deinit { mosquitto_destroy(handle) }

    private static let library: Int32 = mosquitto_lib_init()

    private static func from(_ obj: UnsafeMutableRawPointer?) -> MosquittoClient? {
        obj.map { Unmanaged<MosquittoClient>.fromOpaque($0).takeUnretainedValue() }
    }

    public func start() throws(UplinkError) {
        let rc = mosquitto_connect_async(handle, options.host, Int32(options.port), Int32(options.keepalive))
        if rc != MOSQ_ERR_SUCCESS.rawValue {
            // The loop keeps retrying; remember why the first attempt failed.
            state.withLock { $0.error = "connect to \(options.host):\(options.port): \(Self.describe(rc))" }
        }
        try check(mosquitto_loop_start(handle), "loop_start")
    }

    public var isConnected: Bool { state.withLock { $0.connected } }
    public var connectionCount: Int { state.withLock { $0.count } }
    public var lastError: String? { state.withLock { $0.error } }

    public func publish(topic: String, payload: [UInt8], qos: Int, retain: Bool) throws(UplinkError) -> Int32 {
        var mid: Int32 = 0
        let rc = payload.withUnsafeBytes { buf in
            mosquitto_publish(handle, &mid, topic, Int32(buf.count), buf.baseAddress, Int32(qos), retain)
        }
        guard rc == MOSQ_ERR_SUCCESS.rawValue else { throw .connection("publish \(topic): \(Self.describe(rc))") }
        return mid
    }

    public func waitForAcknowledgements(_ ids: Set<Int32>, timeout: Double, signal: WorkerSignal) -> Set<Int32> {
        let deadline = UplinkClock.monotonic() + timeout
        var pending = ids
        while true {
            state.withLock { s in
                for id in pending where s.acked.remove(id) != nil { pending.remove(id) }
            }
            if pending.isEmpty || signal.isStopped || UplinkClock.monotonic() >= deadline { return pending }
            bell.sleep(min(0.05, max(0, deadline - UplinkClock.monotonic())))
        }
    }

    public func stop() {
        let wasRunning = state.withLock { s -> Bool in
            defer { s.stopped = true }
            return !s.stopped
        }
        guard wasRunning else { return }
        if isConnected, let mid = try? publish(topic: options.availabilityTopic, payload: Array("offline".utf8), qos: 1, retain: true) {
            _ = waitForAcknowledgements([mid], timeout: 2, signal: WorkerSignal())
        }
        mosquitto_disconnect(handle)
        mosquitto_loop_stop(handle, false)
    }

    // MARK: callbacks (libmosquitto's thread)

    private func connected(_ rc: Int32) {
        state.withLock { s in
            if rc == 0 {
                s.connected = true
                s.count += 1
                s.error = nil
            } else {
                s.error = "broker refused the connection: \(String(cString: mosquitto_connack_string(rc)))"
            }
        }
        bell.nudge()
    }

    private func disconnected(_ rc: Int32) {
        state.withLock { s in
            let was = s.connected
            s.connected = false
            guard rc != 0 && !s.stopped else { return }
            // A refusal was already explained by the CONNACK; keep that.
            if was || s.error == nil { s.error = "connection to \(options.host):\(options.port) lost (\(Self.describe(rc)))" }
        }
        bell.nudge()
    }

    private func acknowledged(_ mid: Int32) {
        state.withLock { s in
            s.acked.insert(mid)
            s.ackOrder.append(mid)
            // Acknowledgements nobody waits for (live state) must not pile up; ids wrap at 65535.
            if s.ackOrder.count > 4096 {
                for old in s.ackOrder.prefix(1024) { s.acked.remove(old) }
                s.ackOrder.removeFirst(1024)
            }
        }
        bell.nudge()
    }

    private func check(_ rc: Int32, _ what: String) throws(UplinkError) {
        guard rc == MOSQ_ERR_SUCCESS.rawValue else { throw .connection("mosquitto \(what): \(Self.describe(rc))") }
    }

    static func describe(_ rc: Int32) -> String {
        if rc == MOSQ_ERR_ERRNO.rawValue { return String(cString: strerror(errno)) }
        return String(cString: mosquitto_strerror(rc))
    }
}
