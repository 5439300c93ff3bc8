// SPDX-License-Identifier: MIT
import LogbookConfig

extension UplinkConfiguration {
    static func url(_ r: inout ConfigReader, _ key: String) throws(ConfigError) -> HTTPURL? {
        guard let s = try r.string(key) else { return nil }
        switch HTTPURL.parse(s) {
        case .success(let u): return u
        case .failure(let p): throw ConfigError(key: key, file: r.fileName, problem: p.message)
        }
    }

    static func ownTracks(_ r: inout ConfigReader, mqtt: Bool) throws(ConfigError) -> OwnTracksSettings? {
        let k = "uplink.owntracks."
        var o = OwnTracksSettings()
        let transport = try r.string(k + "transport")
        o.url = try url(&r, k + "url")
        if let u = try r.string(k + "user") { o.user = try name(u, k + "user", &r) }
        if let d = try r.string(k + "device") { o.device = try name(d, k + "device", &r) }
        if let t = try r.string(k + "tid") {
            guard (1...2).contains(t.count) else { throw ConfigError(key: k + "tid", file: r.fileName, problem: "expected 1 or 2 characters, got \"\(t)\"") }
            o.tid = t
        }
        o.username = try r.string(k + "username")
        o.passwordFile = try r.string(k + "password_file")
        if let d = try r.double(k + "drain_points_per_s", in: 0...1_000_000) { o.drainRate = d }
        if let v = try r.integer(k + "batch_points", in: 1...10_000) { o.batchPoints = v }
        if let v = try r.integer(k + "reconnect_max_s", in: 1...3600) { o.reconnectMax = v }
        guard transport != nil || o.url != nil else { return nil }
        o.transport = transport ?? "http"
        switch o.transport {
        case "http":
            guard o.url != nil else { throw ConfigError(key: k + "url", file: r.fileName, problem: "is required with transport = \"http\" (the Recorder's http://HOST:8083/pub)") }
        case "mqtt":
            guard mqtt else { throw ConfigError(key: k + "transport", file: r.fileName, problem: "\"mqtt\" publishes through [uplink.mqtt], which has no host") }
        default:
            throw ConfigError(key: k + "transport", file: r.fileName, problem: "expected \"http\" or \"mqtt\", got \"\(o.transport)\"")
        }
        if o.username != nil, o.passwordFile == nil {
            throw ConfigError(key: k + "password_file", file: r.fileName, problem: "is required with username")
        }
        return o
    }

    static func overland(_ r: inout ConfigReader) throws(ConfigError) -> OverlandSettings? {
        let k = "uplink.overland."
        let u = try url(&r, k + "url")
        let token = try r.string(k + "token")
        let device = try r.string(k + "device_id")
        let batch = try r.integer(k + "batch_points", in: 1...1000)
        let drain = try r.double(k + "drain_points_per_s", in: 0...1_000_000)
        let reconnect = try r.integer(k + "reconnect_max_s", in: 1...3600)
        guard let u else {
            if token != nil || device != nil || batch != nil {
                throw ConfigError(key: k + "url", file: r.fileName, problem: "is required (the receiver's http:// batch URL)")
            }
            return nil
        }
        var o = OverlandSettings(url: u)
        o.token = token
        o.deviceID = device
        if let batch { o.batchPoints = batch }
        if let drain { o.drainRate = drain }
        if let reconnect { o.reconnectMax = reconnect }
        return o
    }

    static func osmAnd(_ r: inout ConfigReader) throws(ConfigError) -> OsmAndSettings? {
        let k = "uplink.osmand."
        let u = try url(&r, k + "url")
        let id = try r.string(k + "id")
        let drain = try r.double(k + "drain_points_per_s", in: 0...1_000_000)
        let reconnect = try r.integer(k + "reconnect_max_s", in: 1...3600)
        guard let u else {
            if id != nil { throw ConfigError(key: k + "url", file: r.fileName, problem: "is required (Traccar's http://HOST:5055/)") }
            return nil
        }
        var o = OsmAndSettings(url: u)
        if let id { o.id = try name(id, k + "id", &r) }
        if let drain { o.drainRate = drain }
        if let reconnect { o.reconnectMax = reconnect }
        return o
    }

    private static func name(_ s: String, _ key: String, _ r: inout ConfigReader) throws(ConfigError) -> String {
        guard !s.isEmpty, s.count <= 64, !s.contains("/"), !s.contains("#"), !s.contains("+") else {
            throw ConfigError(key: key, file: r.fileName, problem: "expected 1-64 characters without / # +, got \"\(s)\"")
        }
        return s
    }
}
