// SPDX-License-Identifier: MIT
public import LogbookCore
public import LogbookJournal
public import Logging

/// The OsmAnd protocol, as Traccar's port 5055 takes it: one `POST /?id=…&lat=…&lon=…&
/// timestamp=…&speed=…(knots)&bearing=…&altitude=…&accuracy=…&ignition=…&odometer=…` per
/// point, and at a trip's end one more with `ignition=false` where the car stopped. Traccar
/// can drop duplicates (`filter.duplicate`); the sent mark keeps acknowledged points from
/// going out again either way.
public final class OsmAndSink: UplinkSink, @unchecked Sendable {
    // Safety: used only from the runner's thread.
    public let name = "osmand"
    let settings: OsmAndSettings
    let id: String
    let http: HTTPSinkCore
    private var feed: InteropFeed

    public init(settings: OsmAndSettings, device: String, defaultVehicle: String, stateDirectory: String, logger: Logger) {
        self.settings = settings
        id = settings.id ?? device
        feed = InteropFeed(defaultVehicle: defaultVehicle)
        http = HTTPSinkCore(name: "osmand", url: settings.url, stateDirectory: stateDirectory, device: device,
                            reconnectMax: Double(settings.reconnectMax), logger: logger)
    }

    public var isConnected: Bool { http.isConnected }
    public var lastError: String? { http.lastError }
    public func becomeReady() -> Bool { http.becomeReady() }
    public var retryDelay: Double { http.retryDelay }

    /// The query strings for `items`, with the sequence each stands for.
    func queries(_ items: [JournalItem], _ feed: inout InteropFeed) -> [(UInt64, String)] {
        var out: [(UInt64, String)] = []
        for m in feed.messages(items, rewound: { self.http.sent.rewind(to: $0) }) {
            switch m.kind {
            case .point(let p):
                out.append((m.seq, InteropPayloads.osmAndQuery(id: id, point: p, ignition: true, odometerKm: m.odometerKm)))
            case .tripEnded(let end, let last?):
                // One second after the last point, so a receiver keyed on the time keeps both.
                let at = GPSTime(nanoseconds: max(end.gpsTime?.nanoseconds ?? 0, last.time.nanoseconds + 1_000_000_000))
                var stopped = last
                stopped.speed = 0
                out.append((m.seq, InteropPayloads.osmAndQuery(id: id, point: stopped, time: at, ignition: false, odometerKm: m.odometerKm)))
            default:
                continue
            }
        }
        return out
    }

    public func deliver(_ items: [JournalItem], signal: WorkerSignal) throws(UplinkError) {
        var next = feed
        let base = settings.url.target.hasSuffix("/") || settings.url.target.contains("?") ? settings.url.target : settings.url.target + "/"
        let joiner = base.contains("?") ? "&" : "?"
        defer { http.batchDone() }
        for (seq, query) in queries(items, &next) {
            if signal.isStopped { throw .stopped }
            try http.deliver(seq: seq, target: base + joiner + query)
        }
        feed = next
    }

    public func savedState() -> JSONValue { feed.json }
    public func restore(_ state: JSONValue) { feed.restore(state) }
}
