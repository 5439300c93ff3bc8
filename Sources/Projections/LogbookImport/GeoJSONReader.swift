// SPDX-License-Identifier: MIT
import LogbookCore

/// GeoJSON (RFC 7946) `LineString` and `MultiLineString` features with point times, as
/// track tools write them: `properties.coordTimes` (togeojson; an array per line for a
/// `MultiLineString`) or `properties.times`, ISO 8601 or Unix seconds; or a fourth element
/// in each position (`[lon, lat, ele, time]`). Each feature is one track. A feature is held
/// in memory while it is read (its times may come after its coordinates); the file is not.
public struct GeoJSONReader: ImportReader {
    private var json: JSONTokenizer
    private var queue: [ImportEvent] = []
    private var queueIndex = 0
    private var inFeatures = false
    private var started = false
    private var featureNumber = 0

    public init(_ input: ByteInput) { json = JSONTokenizer(input) }

    public var input: ByteInput { json.input }

    public mutating func next() throws(ImportIssue) -> ImportEvent? {
        while true {
            if queueIndex < queue.count {
                defer { queueIndex += 1 }
                return queue[queueIndex]
            }
            queue.removeAll(keepingCapacity: true)
            queueIndex = 0
            if !started {
                started = true
                try json.expect(.beginObject, "a GeoJSON object")
            }
            guard let token = try json.next() else { return nil }
            if inFeatures {
                switch token {
                case .beginObject:
                    let line = json.tokenLine
                    featureNumber += 1
                    expand(try json.value(startingWith: token), line: line)
                case .endArray: inFeatures = false
                default: throw ImportIssue(line: json.tokenLine, "a feature must be an object")
                }
                continue
            }
            switch token {
            case .key("features"):
                guard try json.next() == .beginArray else { throw ImportIssue(line: json.tokenLine, "\"features\" must be an array") }
                inFeatures = true
            case .key("type"):
                // A lone Feature at the top level: read the rest as that feature.
                guard let v = try json.next() else { return nil }
                if v == .string("Feature") {
                    var members: [(String, JSONValue)] = [("type", .string("Feature"))]
                    while let t = try json.next(), case .key(let k) = t, let first = try json.next() {
                        members.append((k, try json.value(startingWith: first)))
                    }
                    featureNumber += 1
                    expand(.object(members), line: 1)
                } else if v != .string("FeatureCollection") {
                    throw ImportIssue(line: json.tokenLine, "GeoJSON of type \(v) has no tracks (expected a FeatureCollection or Feature)")
                }
            case .key:
                guard let v = try json.next() else { return nil }
                try json.skipValue(v)
            default: continue
            }
        }
    }

    /// Queues the track of one feature (or why it has none).
    private mutating func expand(_ feature: JSONValue, line: Int) {
        let name = "feature \(featureNumber)"
        guard let geometry = feature["geometry"], case .string(let type)? = geometry["type"] else {
            queue.append(.bad(ImportIssue(line: line, "\(name) has no geometry")))
            return
        }
        var lines: [[JSONValue]]
        switch (type, geometry["coordinates"]) {
        case ("LineString", .array(let positions)?): lines = [positions]
        case ("MultiLineString", .array(let parts)?):
            lines = parts.map { if case .array(let p) = $0 { p } else { [] } }
        case ("Point", _), ("MultiPoint", _), ("Polygon", _), ("MultiPolygon", _):
            return  // places, not tracks
        default:
            queue.append(.bad(ImportIssue(line: line, "\(name): \(type) without coordinates")))
            return
        }
        let properties = feature["properties"]
        let times = properties?["coordTimes"] ?? properties?["times"]
        var flatTimes: [JSONValue] = []
        if case .array(let t)? = times {
            for item in t { if case .array(let inner) = item { flatTimes += inner } else { flatTimes.append(item) } }
        }
        queue.append(.track(nil))
        var k = 0
        for positions in lines {
            for position in positions {
                defer { k += 1 }
                guard case .array(let c) = position, c.count >= 2, let lon = c[0].doubleValue, let lat = c[1].doubleValue else {
                    queue.append(.bad(ImportIssue(line: line, "\(name), position \(k + 1): not [lon, lat]")))
                    continue
                }
                let timeValue = k < flatTimes.count ? flatTimes[k] : (c.count >= 4 ? c[3] : nil)
                guard let time = timeValue.flatMap(Self.time) else {
                    queue.append(.bad(ImportIssue(line: line, "\(name), position \(k + 1): no time (properties.coordTimes)")))
                    continue
                }
                queue.append(.point(ImportPoint(
                    time: time, latitude: lat, longitude: lon, altitude: c.count >= 3 ? c[2].doubleValue : nil, line: line)))
            }
        }
    }

    static func time(_ v: JSONValue) -> GPSTime? {
        switch v {
        case .string(let s): ISO8601.parseWithOffset(s)
        case .number(let n) where n.isFinite: GPSTime(nanoseconds: Int64((n * 1e9).rounded()))
        default: nil
        }
    }
}
