// SPDX-License-Identifier: MIT
import LogbookCore

/// Google's location history, in either layout:
///
/// - **Takeout `Records.json`**: `{"locations": [{"latitudeE7", "longitudeE7", "accuracy",
///   "altitude", "velocity", "heading", "timestamp" | "timestampMs"}, …]}` (E7 = degrees × 10⁷;
///   `timestamp` ISO 8601, older files `timestampMs`, milliseconds as a string).
/// - **On-device `Timeline.json`** (Maps' "Export timeline" since 2024):
///   `{"semanticSegments": [{"startTime", "endTime", "timelinePath": [{"point": "48.1°, 11.5°",
///   "time": "…+01:00"}, …]}, {"visit": …}, …], "rawSignals": […], "userLocationProfile": …}`.
///   The paths of the segments are read in order; `rawSignals` (a separate, shorter
///   stream of the last days, out of order with the paths) and visits are not positions of
///   a drive and are skipped.
///
/// One location object is held at a time.
public struct GoogleLocationReader: ImportReader {
    private var json: JSONTokenizer
    private enum Place { case top, locations, segments, segment, path }
    private var place = Place.top
    private var started = false
    private var index = 0

    public init(_ input: ByteInput) { json = JSONTokenizer(input) }

    public var input: ByteInput { json.input }

    public mutating func next() throws(ImportIssue) -> ImportEvent? {
        if !started {
            started = true
            try json.expect(.beginObject, "a JSON object (Records.json or Timeline.json)")
            // A history is one track: the trip rules cut it.
            return .track(nil)
        }
        while let token = try json.next() {
            switch (place, token) {
            case (.top, .key(let k)):
                guard let v = try json.next() else { return nil }
                if k == "locations", v == .beginArray { place = .locations } else if k == "semanticSegments", v == .beginArray {
                    place = .segments
                } else {
                    try json.skipValue(v)
                }
            case (.top, .endObject): continue
            case (.locations, .beginObject), (.path, .beginObject):
                let line = json.tokenLine
                index += 1
                let object = try json.value(startingWith: .beginObject)
                return place == .locations ? Self.record(object, line: line, index: index) : Self.pathPoint(object, line: line, index: index)
            case (.locations, .endArray), (.segments, .endArray): place = .top
            case (.segments, .beginObject): place = .segment
            case (.segment, .key(let k)):
                guard let v = try json.next() else { return nil }
                if k == "timelinePath", v == .beginArray { place = .path } else { try json.skipValue(v) }
            case (.segment, .endObject): place = .segments
            case (.path, .endArray): place = .segment
            case (_, let t):
                // Anything else in an array of locations: not a location object.
                if place == .locations || place == .path {
                    try json.skipValue(t)
                    index += 1
                    return .bad(ImportIssue(line: json.tokenLine, "location \(index) is not an object"))
                }
                try json.skipValue(t)
            }
        }
        return nil
    }

    static func record(_ o: JSONValue, line: Int, index: Int) -> ImportEvent {
        guard let lat = o["latitudeE7"]?.doubleValue, let lon = o["longitudeE7"]?.doubleValue else {
            return .bad(ImportIssue(line: line, "location \(index) has no latitudeE7/longitudeE7"))
        }
        var time: GPSTime?
        if let t = o["timestamp"]?.stringValue {
            time = ISO8601.parseWithOffset(t)
        } else if let ms = o["timestampMs"]?.stringValue.flatMap({ Int64($0) }) ?? o["timestampMs"]?.doubleValue.map({ Int64($0) }) {
            time = GPSTime(nanoseconds: ms * 1_000_000)
        }
        guard let time else { return .bad(ImportIssue(line: line, "location \(index) has no readable timestamp")) }
        return .point(ImportPoint(
            time: time, latitude: lat / 1e7, longitude: lon / 1e7, speed: o["velocity"]?.doubleValue, track: o["heading"]?.doubleValue,
            altitude: o["altitude"]?.doubleValue, eph: o["accuracy"]?.doubleValue, line: line))
    }

    static func pathPoint(_ o: JSONValue, line: Int, index: Int) -> ImportEvent {
        guard let text = o["point"]?.stringValue, let (lat, lon) = degrees(text) else {
            return .bad(ImportIssue(line: line, "timelinePath point \(index) has no readable \"point\" (\"48.1°, 11.5°\")"))
        }
        guard let t = o["time"]?.stringValue, let time = ISO8601.parseWithOffset(t) else {
            return .bad(ImportIssue(line: line, "timelinePath point \(index) has no readable \"time\""))
        }
        return .point(ImportPoint(time: time, latitude: lat, longitude: lon, line: line))
    }

    /// `"48.1234567°, 11.1234567°"` (or `geo:48.1,11.5`) as latitude and longitude.
    static func degrees(_ text: String) -> (Double, Double)? {
        var s = text
        if s.hasPrefix("geo:") { s.removeFirst(4) }
        let parts = s.split(separator: ",").map { $0.filter { $0 != "°" && $0 != " " } }
        guard parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]) else { return nil }
        return (lat, lon)
    }
}
