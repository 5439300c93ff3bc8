// SPDX-License-Identifier: MIT
import LogbookCore
import Logging
import Synchronization

/// What the HTTP sinks (OwnTracks over HTTP, Overland, OsmAnd) share: the connection, the
/// backoff, the sent mark and the parking of refused messages.
///
/// A reply decides what happens to a message:
/// - 2xx (and, where the receiver says so in its body, success): acknowledged;
/// - 4xx: the receiver will never take this message; it is logged and **parked**
///   (`<state_dir>/parked-<sink>.ndjson`: time, sequence, status, reply, request) and the
///   sink goes on with the next one: one bad message never blocks the rest;
/// - 5xx, no answer, no connection: the batch fails; the runner sends it again from the
///   cursor after the backoff (1 s doubling to `reconnect_max_s`), skipping what the
///   receiver had acknowledged (``SentMark``).
final class HTTPSinkCore: @unchecked Sendable {
    // Safety: `client` and `sent` are used only from the sink runner's thread; `state` is locked.
    let name: String
    let client: HTTPClient
    let sent: SentMark
    private let parkedPath: String
    private let reconnectMax: Double
    private let logger: Logger
    private struct State {
        var connected = false
        var error: String?
        var backoff = 1.0
        var notBefore = 0.0
    }
    private let state = Mutex(State())
    /// Messages parked since start (for tests and the status).
    private(set) var parked = 0

    init(name: String, url: HTTPURL, stateDirectory: String, device: String, reconnectMax: Double, logger: Logger) {
        self.name = name
        client = HTTPClient(url: url)
        sent = SentMark(directory: stateDirectory, sink: name, device: device)
        parkedPath = stateDirectory + "/parked-" + name + ".ndjson"
        self.reconnectMax = reconnectMax
        self.logger = logger
    }

    var isConnected: Bool { state.withLock { $0.connected } }
    var lastError: String? { state.withLock { $0.error } }

    /// False while backing off after a failure.
    func becomeReady() -> Bool { UplinkClock.monotonic() >= state.withLock { $0.notBefore } }
    var retryDelay: Double { max(0.05, state.withLock { $0.notBefore } - UplinkClock.monotonic()) }

    /// Sends message `seq` unless acknowledged before; `accepted` judges a 2xx reply's body.
    func deliver(
        seq: UInt64, method: String = "POST", target: String, headers: [(String, String)] = [], body: [UInt8] = [],
        accepted: (HTTPClient.Response) -> Bool = { _ in true }
    ) throws(UplinkError) {
        guard !sent.covers(seq) else { return }
        let reply: HTTPClient.Response
        do {
            reply = try client.send(method: method, target: target, headers: headers, body: body)
        } catch {
            fail("\(name): \(error)")
            throw error
        }
        switch reply.status {
        case 200..<300 where accepted(reply):
            sent.mark(seq)
            state.withLock {
                $0.connected = true
                $0.error = nil
                $0.backoff = 1
            }
        case 400..<500:
            park(seq: seq, reply: reply, target: target, body: body)
            sent.mark(seq)
            state.withLock { $0.connected = true }
        default:
            let why = "\(name): receiver answered \(reply.status): \(reply.text.prefix(200))"
            fail(why)
            throw .rejected(why)
        }
    }

    /// Makes the sent mark durable (end of a batch).
    func batchDone() { sent.flush() }

    private func fail(_ why: String) {
        let changed = state.withLock { s -> Bool in
            s.connected = false
            s.notBefore = UplinkClock.monotonic() + s.backoff
            s.backoff = min(reconnectMax, s.backoff * 2)
            defer { s.error = why }
            return s.error != why
        }
        client.disconnect()
        if changed { logger.warning("uplink receiver unavailable", metadata: ["sink": "\(name)", "error": "\(why)"]) }
    }

    private func park(seq: UInt64, reply: HTTPClient.Response, target: String, body: [UInt8]) {
        parked += 1
        logger.warning("uplink receiver refused a message; parked", metadata: [
            "sink": "\(name)", "seq": "\(seq)", "status": "\(reply.status)", "reply": "\(reply.text.prefix(200))",
        ])
        let line = JSONValue.object([
            ("at", .string(ISO8601.format(GPSTime(nanoseconds: UplinkClock.wallNanoseconds())))), ("seq", .number(Double(seq))),
            ("status", .number(Double(reply.status))), ("reply", .string(String(reply.text.prefix(1000)))),
            ("target", .string(target)), ("body", .string(String(decoding: body.prefix(8192), as: UTF8.self))),
        ]).serialized + "\n"
        AppendFile.append(Array(line.utf8), to: parkedPath)
    }
}
