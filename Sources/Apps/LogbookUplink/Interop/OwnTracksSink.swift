// SPDX-License-Identifier: MIT
public import LogbookCore
public import LogbookJournal
public import Logging
internal import LogbookPOSIX

/// The car as an OwnTracks device: one `_type: location` message per point (and
/// `_type: transition` for place events, see ``InteropPayloads/ownTracksTransition(place:_:entered:time:at:tid:topic:)``), over MQTT to `owntracks/USER/DEVICE` (QoS 1,
/// through a broker the OwnTracks Recorder or Home Assistant's OwnTracks integration
/// subscribes to) or over HTTP to the Recorder's `/pub` (user and device in `X-Limit-U` /
/// `X-Limit-D`). The Recorder appends every message it gets: resends are avoided by the
/// sent mark (HTTP) — see ``HTTPSinkCore``; over MQTT a batch goes out again only after a
/// crash or a broker restart, as for the MQTT sink.
public final class OwnTracksSink: UplinkSink, @unchecked Sendable {
    // Safety: `feed` and the transports are used only from the runner's thread.
    public let name = "owntracks"
    let settings: OwnTracksSettings
    let device: String
    let http: HTTPSinkCore?
    let mqtt: (any MQTTTransport)?
    private var feed: InteropFeed
    private let topic: String
    /// The configured `[[privacy_zone]]` names: their `place:NAME` events are not sent.
    let privacyZones: Set<String>

    /// `mqtt`: the transport for `transport = "mqtt"` (its own client connection); nil for HTTP.
    public init(settings: OwnTracksSettings, device: String, defaultVehicle: String, stateDirectory: String,
                privacyZones: Set<String> = [], mqtt: (any MQTTTransport)?, logger: Logger) {
        self.settings = settings
        self.privacyZones = privacyZones
        self.device = device
        feed = InteropFeed(defaultVehicle: defaultVehicle)
        topic = "owntracks/\(settings.user)/\(settings.device ?? device)"
        self.mqtt = mqtt
        http = settings.url.map {
            HTTPSinkCore(name: "owntracks", url: $0, stateDirectory: stateDirectory, device: device,
                         reconnectMax: Double(settings.reconnectMax), logger: logger)
        }
    }

    public var isConnected: Bool { mqtt?.isConnected ?? http?.isConnected ?? false }
    public var lastError: String? { mqtt?.lastError ?? http?.lastError }
    public func becomeReady() -> Bool { mqtt?.isConnected ?? http?.becomeReady() ?? false }
    public var retryDelay: Double { mqtt == nil ? http?.retryDelay ?? 1 : 0.1 }

    var tid: String { settings.tid ?? String((settings.device ?? device).suffix(2)) }

    /// The messages for `items`, with the sequence each stands for.
    func payloads(_ items: [JournalItem], _ feed: inout InteropFeed, http: Bool) -> [(UInt64, JSONValue)] {
        var out: [(UInt64, JSONValue)] = []
        let topicField = http ? topic : nil
        for m in feed.messages(items, rewound: { self.http?.sent.rewind(to: $0) }) {
            switch m.kind {
            case .point(let p):
                out.append((m.seq, InteropPayloads.ownTracksLocation(p, tid: tid, odometerKm: m.odometerKm, topic: topicField)))
            case .place(let id, let place, let entered, let time, let at):
                // The schema requires a position, which a privacy zone's event must not give
                // away: none is sent, nor for an id the journal names no place for (a zone
                // since removed from the configuration, a record without a fix time).
                guard !privacyZones.contains(id), let place, let time,
                    let t = InteropPayloads.ownTracksTransition(place: id, place, entered: entered, time: time, at: at, tid: tid, topic: topicField)
                else { continue }
                out.append((m.seq, t))
            case .tripEnded:
                continue
            }
        }
        return out
    }

    public func deliver(_ items: [JournalItem], signal: WorkerSignal) throws(UplinkError) {
        var next = feed
        if let http {
            let headers = [("Content-Type", "application/json"), ("X-Limit-U", settings.user), ("X-Limit-D", settings.device ?? device)]
                + (settings.authorization.map { [("Authorization", $0)] } ?? [])
            defer { http.batchDone() }
            for (seq, message) in payloads(items, &next, http: true) {
                if signal.isStopped { throw .stopped }
                try http.deliver(seq: seq, target: settings.url?.target ?? "/pub", headers: headers, body: Array(message.serialized.utf8))
            }
        } else if let mqtt {
            var pending = Set<Int32>()
            for (_, message) in payloads(items, &next, http: false) {
                pending.insert(try mqtt.publish(topic: topic, payload: Array(message.serialized.utf8), qos: 1, retain: false))
            }
            var quietSince = MonotonicClock.seconds()
            while !pending.isEmpty {
                let before = pending.count
                pending = mqtt.waitForAcknowledgements(pending, timeout: 1, signal: signal)
                if signal.isStopped { throw .stopped }
                if pending.count < before || !mqtt.isConnected { quietSince = MonotonicClock.seconds() }
                if MonotonicClock.seconds() - quietSince > 60 { throw .connection("broker did not acknowledge \(pending.count) OwnTracks message(s)") }
            }
        }
        feed = next
    }

    public func savedState() -> JSONValue { feed.json }
    public func restore(_ state: JSONValue) { feed.restore(state) }
}
