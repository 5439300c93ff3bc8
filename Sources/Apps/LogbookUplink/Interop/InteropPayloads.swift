// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookRecords

/// The messages the servers people already run accept.
enum InteropPayloads {
    /// OwnTracks `_type: location` (the OwnTracks JSON schema's types: `tst`, `vel`, `acc`,
    /// `alt` integers). `ign`, `motion` and `odometer` are the schema's vehicle fields. Over
    /// HTTP the Recorder wants the topic in the message (`topic`).
    static func ownTracksLocation(_ p: TripPoint, tid: String, odometerKm: Double?, topic: String?) -> JSONValue {
        var m: [(String, JSONValue)] = [
            ("_type", .string("location")), ("tid", .string(tid)), ("lat", .number(p.latitude)), ("lon", .number(p.longitude)),
            ("tst", .number(Double(p.time.wholeSeconds))),
        ]
        if let v = p.speed { m.append(("vel", .number((v * 3.6).rounded()))) }
        if let c = p.track { m.append(("cog", .number(c.rounded()))) }
        if let a = p.altitude { m.append(("alt", .number(a.rounded()))) }
        if let e = p.eph { m.append(("acc", .number(e.rounded()))) }
        m.append(("ign", .bool(true)))
        m.append(("motion", .bool((p.speed ?? 0) >= 1)))
        if let o = odometerKm { m.append(("odometer", .number((o * 10).rounded() / 10))) }
        m.append(("t", .string("t")))  // a timer-triggered report (the car reports on its own clock)
        if let topic { m.append(("topic", .string(topic))) }
        return .object(m)
    }

    /// OwnTracks `_type: transition` for a place entered or left (`t: c`, a circular region).
    /// The schema requires `lat`, `lon`, `acc`, `tst` and `wtst`: the position is the car's
    /// last point at or before the event (`acc` its error estimate), else the place's centre
    /// (`acc` its radius); `wtst` the place's creation, else the event's time.
    static func ownTracksTransition(place id: String, _ place: KnownPlaces.Place, entered: Bool, time: GPSTime, at: TripPoint?,
                                    tid: String, topic: String?) -> JSONValue? {
        guard let r = place.record else { return nil }
        let (lat, lon, acc) = at.map { ($0.latitude, $0.longitude, ($0.eph ?? 0).rounded()) } ?? (r.latitude, r.longitude, r.radius.rounded())
        var m: [(String, JSONValue)] = [
            ("_type", .string("transition")), ("tid", .string(tid)), ("event", .string(entered ? "enter" : "leave")),
            ("desc", .string(r.name ?? id)), ("lat", .number(lat)), ("lon", .number(lon)), ("acc", .number(acc)),
            ("tst", .number(Double(time.wholeSeconds))), ("wtst", .number(Double((place.created ?? time).wholeSeconds))),
            ("t", .string("c")),
        ]
        if let topic { m.append(("topic", .string(topic))) }
        return .object(m)
    }

    /// One Overland location: a GeoJSON `Feature` with a `Point` and Overland's properties.
    static func overlandFeature(_ p: TripPoint, device: String) -> JSONValue {
        var props: [(String, JSONValue)] = [("timestamp", .string(ISO8601.format(p.time))), ("device_id", .string(device))]
        if let a = p.altitude { props.append(("altitude", .number(a.rounded()))) }
        props.append(("speed", .number(p.speed.map { ($0 * 100).rounded() / 100 } ?? -1)))
        props.append(("course", .number(p.track.map { $0.rounded() } ?? -1)))
        if let e = p.eph { props.append(("horizontal_accuracy", .number(e.rounded()))) }
        props.append(("motion", .array([.string((p.speed ?? 0) >= 1 ? "driving" : "stationary")])))
        return .object([
            ("type", .string("Feature")),
            ("geometry", .object([("type", .string("Point")), ("coordinates", .array([.number(p.longitude), .number(p.latitude)]))])),
            ("properties", .object(props)),
        ])
    }

    /// The OsmAnd protocol's query string (Traccar's port 5055): `id`, `lat`, `lon`,
    /// `timestamp` (Unix seconds), `speed` (knots), `bearing`, `altitude`, `accuracy`, and
    /// Traccar's `ignition`, `odometer` (metres) attributes where known.
    static func osmAndQuery(id: String, point p: TripPoint, time: GPSTime? = nil, ignition: Bool, odometerKm: Double?) -> String {
        var q: [(String, String)] = [
            ("id", id), ("lat", number(p.latitude, 7)), ("lon", number(p.longitude, 7)),
            ("timestamp", String((time ?? p.time).wholeSeconds)),
        ]
        if let v = p.speed { q.append(("speed", number(v / 0.514444, 2))) }
        if let c = p.track { q.append(("bearing", number(c, 1))) }
        if let a = p.altitude { q.append(("altitude", number(a, 1))) }
        if let e = p.eph { q.append(("accuracy", number(e, 1))) }
        q.append(("ignition", ignition ? "true" : "false"))
        if let o = odometerKm { q.append(("odometer", String(Int((o * 1000).rounded())))) }
        return q.map { "\($0.0)=\(percentEncoded($0.1))" }.joined(separator: "&")
    }

    static func number(_ v: Double, _ places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let r = (v * scale).rounded() / scale
        return r == r.rounded() && abs(r) < 1e15 ? String(Int64(r)) : String(r)
    }

    /// RFC 3986 unreserved characters kept, everything else percent-encoded.
    static func percentEncoded(_ s: String) -> String {
        var out = ""
        for b in s.utf8 {
            switch b {
            case 48...57, 65...90, 97...122, 45, 46, 95, 126: out.unicodeScalars.append(Unicode.Scalar(b))
            default: out += "%" + String(b, radix: 16, uppercase: true).leftPadded(2)
            }
        }
        return out
    }
}

extension String {
    func leftPadded(_ n: Int) -> String { count >= n ? self : String(repeating: "0", count: n - count) + self }
}
