// SPDX-License-Identifier: MIT
public import LogbookCore
public import LogbookJournal
public import Logging

/// Overland batches: `POST {"locations": [Feature, …]}` (GeoJSON `Point` features with
/// Overland's properties), at most `batch_points` per request, so a backlog drains in few
/// requests (Dawarich's `/api/v1/overland/batches`, Compass). The receiver must answer 2xx
/// and, when its body is JSON with a `result`, `"result": "ok"` (Overland's contract).
/// Dawarich de-duplicates by time and position; the sent mark keeps a batch that was
/// acknowledged from going out again anyway.
public final class OverlandSink: UplinkSink, @unchecked Sendable {
    // Safety: used only from the runner's thread.
    public let name = "overland"
    let settings: OverlandSettings
    let device: String
    let http: HTTPSinkCore
    private var feed: InteropFeed

    public init(settings: OverlandSettings, device: String, defaultVehicle: String, stateDirectory: String, logger: Logger) {
        self.settings = settings
        self.device = settings.deviceID ?? device
        feed = InteropFeed(defaultVehicle: defaultVehicle)
        http = HTTPSinkCore(name: "overland", url: settings.url, stateDirectory: stateDirectory, device: device,
                            reconnectMax: Double(settings.reconnectMax), logger: logger)
    }

    public var isConnected: Bool { http.isConnected }
    public var lastError: String? { http.lastError }
    public func becomeReady() -> Bool { http.becomeReady() }
    public var retryDelay: Double { http.retryDelay }

    public func deliver(_ items: [JournalItem], signal: WorkerSignal) throws(UplinkError) {
        var next = feed
        var batch: [(UInt64, JSONValue)] = []
        for m in next.messages(items, rewound: { self.http.sent.rewind(to: $0) }) {
            if case .point(let p) = m.kind, !http.sent.covers(m.seq) { batch.append((m.seq, InteropPayloads.overlandFeature(p, device: device))) }
        }
        var headers = [("Content-Type", "application/json")]
        if let token = settings.token { headers.append(("Authorization", "Bearer \(token)")) }
        defer { http.batchDone() }
        var start = 0
        while start < batch.count {
            if signal.isStopped { throw .stopped }
            let part = batch[start..<min(batch.count, start + settings.batchPoints)]
            let body = JSONValue.object([("locations", .array(part.map(\.1)))]).serialized
            // The batch is acknowledged as a whole: its last sequence is the mark.
            try http.deliver(seq: part.last!.0, target: settings.url.target, headers: headers, body: Array(body.utf8)) { reply in
                guard let json = try? JSONValue.parse(reply.body), let result = json["result"] else { return true }
                return result.stringValue == "ok"
            }
            start += part.count
        }
        feed = next
    }

    public func savedState() -> JSONValue { feed.json }
    public func restore(_ state: JSONValue) { feed.restore(state) }
}
