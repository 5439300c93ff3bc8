// SPDX-License-Identifier: MIT
package import LogbookCore

/// The control-socket commands that write an imported history (`logbook import`), and the
/// compact point encoding they carry. Shared by the CLI (which builds the requests) and the
/// journal side (which checks them and appends the records), so both paths write the same.
///
/// | Request | Reply |
/// |---|---|
/// | `{"cmd":"import.begin","vehicle":"golf","reason":"import:gpx","started_at":"…Z"}` | `{"ok":true,"trip":412,"seq":…}` |
/// | `{"cmd":"import.points","trip":412,"t0":1712131200000,"points":[[dt_ms,lat,lon,speed,track,alt,eph],…]}` (≤ 512) | `{"ok":true,"seq":…}` once durable |
/// | `{"cmd":"import.gap","trip":412,"from":"…Z","to":"…Z"}` | `{"ok":true,"seq":…}` |
/// | `{"cmd":"import.end","trip":412,"reason":"motion","ended_at":"…Z","distance_m":…,"duration_s":…,"max_speed_mps":…,"avg_speed_mps":…,"points":…,"discarded":false}` | `{"ok":true,"seq":…}` once durable |
/// | `{"cmd":"import.record","hash":"<sha256>","file":"…","format":"gpx","vehicle":…,"trips":[412,…],"points":…,"skipped":…}` | `{"ok":true,"seq":…}` once durable |
package enum ImportWire {
    /// Most points in one `import.points` request (a line stays well under 64 KiB).
    package static let maximumPoints = 512

    /// The commands and their fields.
    package static let commands: [ControlCommand] = [
        ControlCommand("import.begin", arguments: [
            .init("vehicle", .string), .init("reason", .string, required: true), .init("started_at", .string),
        ]),
        ControlCommand("import.points", arguments: [
            .init("trip", .number, required: true), .init("t0", .number, required: true), .init("points", .array, required: true),
        ]),
        ControlCommand("import.gap", arguments: [
            .init("trip", .number, required: true), .init("from", .string, required: true), .init("to", .string, required: true),
        ]),
        ControlCommand("import.end", arguments: [
            .init("trip", .number, required: true), .init("reason", .string, required: true), .init("ended_at", .string),
            .init("distance_m", .number, required: true), .init("duration_s", .number, required: true),
            .init("max_speed_mps", .number, required: true), .init("avg_speed_mps", .number, required: true),
            .init("points", .number, required: true), .init("discarded", .bool, required: true),
        ]),
        ControlCommand("import.record", arguments: [
            .init("hash", .string, required: true), .init("file", .string, required: true), .init("format", .string, required: true),
            .init("vehicle", .string), .init("trips", .array, required: true), .init("points", .number, required: true),
            .init("skipped", .number, required: true), .init("first", .string), .init("last", .string),
        ]),
    ]

    /// `points` relative to `t0` (ms since the epoch): `[dt_ms, lat, lon, speed, track, alt,
    /// eph]`, `null` where not measured (as the uplink's MQTT points).
    package static func encode(_ points: [TripPoint]) -> (t0: Int64, points: JSONValue) {
        let t0 = (points.first?.time.nanoseconds ?? 0) / 1_000_000
        let rows: [JSONValue] = points.map { p in
            // Microseconds, exact in JSON and back.
            let dt = Double((p.time.nanoseconds - t0 * 1_000_000) / 1000) / 1000
            return .array([
                .number(dt), .number(p.latitude), .number(p.longitude), .number(p.speed), .number(p.track),
                .number(p.altitude), .number(p.eph),
            ])
        }
        return (t0, .array(rows))
    }

    /// Decodes and checks `import.points`: 1…512 points, coordinates in range, times
    /// strictly increasing (and after `after`). The problem names the point.
    package static func decode(_ request: JSONValue, after: GPSTime?) throws(ControlError) -> [TripPoint] {
        guard let t0 = request["t0"]?.doubleValue, t0.isFinite, abs(t0) < 1e15,
            case .array(let rows)? = request["points"]
        else { throw bad("import.points needs \"t0\" (ms) and \"points\"") }
        guard (1...maximumPoints).contains(rows.count) else { throw bad("import.points carries 1 to \(maximumPoints) points, got \(rows.count)") }
        var out: [TripPoint] = []
        out.reserveCapacity(rows.count)
        var last = after
        for (i, row) in rows.enumerated() {
            guard case .array(let v) = row, v.count == 7, let dt = v[0].doubleValue, let lat = v[1].doubleValue, let lon = v[2].doubleValue,
                lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 180
            else { throw bad("point \(i + 1): expected [dt_ms, lat, lon, speed, track, alt, eph] with lat/lon in range") }
            func optional(_ k: Int) throws(ControlError) -> Double? {
                if v[k].isNull { return nil }
                guard let d = v[k].doubleValue, d.isFinite else { throw bad("point \(i + 1): field \(k + 1) must be a number or null") }
                return d
            }
            guard abs(dt) < 1e12 else { throw bad("point \(i + 1): dt_ms out of range") }
            let time = GPSTime(nanoseconds: Int64(t0) * 1_000_000 + Int64((dt * 1000).rounded()) * 1000)
            if let last, time <= last { throw bad("point \(i + 1): time \(time) does not follow \(last)") }
            last = time
            out.append(TripPoint(
                time: time, latitude: lat, longitude: lon, speed: try optional(3), track: try optional(4), altitude: try optional(5),
                eph: try optional(6)))
        }
        return out
    }

    /// A trip number from a request field.
    package static func trip(_ request: JSONValue) throws(ControlError) -> UInt64 {
        guard let n = request["trip"]?.doubleValue, n >= 1, n < 9e15, n == n.rounded() else { throw bad("\"trip\" must be a trip number") }
        return UInt64(n)
    }

    /// A reason: `import:` and a format name, or what the trip engine ended an imported trip with.
    package static func checkReason(_ reason: String) throws(ControlError) {
        let allowed = ["motion", "gap", "shutdown"]
        guard (reason.hasPrefix("import:") && reason.count <= 40 && reason.count > 7) || allowed.contains(reason) else {
            throw bad("reason must be import:FORMAT, motion, gap or shutdown, got \"\(reason)\"")
        }
    }

    /// A `bad_request` refusal.
    package static func bad(_ message: String) -> ControlError { ControlError(code: "bad_request", message: message) }
}
