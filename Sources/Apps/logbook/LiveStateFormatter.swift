// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore

/// Renders the live state for a person.
enum LiveStateFormatter {
    static func render(_ doc: JSONValue, age: Double?) -> String {
        var lines: [String] = []
        let seq = doc["seq"]?.doubleValue.map { Int($0) } ?? 0
        let ageText = age.map { String(format: "%.1f s ago", max(0, $0)) } ?? "at an unknown time"
        lines.append("logbookd — updated \(ageText) (seq \(seq))")
        if let gps = doc["gps"] { lines += renderGPS(gps, privacyZone: doc["in_privacy_zone"]?.stringValue) }
        if let line = renderPlace(doc["place"]) { lines.append(line) }
        if let journal = doc["journal"], let status = journal["status"]?.stringValue, status != "ok" {
            lines.append(renderJournalProblem(status, journal))
        }
        if let power = doc["power"], let line = renderPower(power) { lines.append(line) }
        if case .array(let sources)? = doc["obd"] { for source in sources { lines += renderOBD(source) } }
        lines += renderTrip("Trip", doc["trip"], idle: "idle — no trip is being recorded")
        if let last = doc["last_trip"], !last.isNull { lines += renderTrip("Last", last, idle: "") }
        return lines.joined(separator: "\n")
    }

    static func renderGPS(_ gps: JSONValue, privacyZone: String? = nil) -> [String] {
        guard gps["connected"]?.boolValue == true else {
            return ["GPS     not connected to gpsd (retrying)", counters(gps)]
        }
        let mode = Int(gps["mode"]?.doubleValue ?? 0)
        if mode >= 2, let zone = privacyZone {
            var line = "GPS     \(mode == 3 ? "3D" : "2D") fix · in privacy zone \(zone) (no position shown or recorded)"
            if let v = gps["speed_mps"]?.doubleValue { line += String(format: " · %.0f km/h", v * 3.6) }
            return [line, counters(gps)]
        }
        guard mode >= 2, let lat = gps["lat"]?.doubleValue, let lon = gps["lon"]?.doubleValue else {
            return ["GPS     connected, no fix", counters(gps)]
        }
        var head = "GPS     \(mode == 3 ? "3D" : "2D") fix"
        if let sats = gps["satellites_used"]?.doubleValue { head += " · \(Int(sats)) satellites" }
        if let time = gps["time"]?.stringValue { head += " · \(time)" }
        var where_ = String(format: "        %.5f° %@, %.5f° %@", abs(lat), lat >= 0 ? "N" : "S", abs(lon), lon >= 0 ? "E" : "W")
        if let v = gps["speed_mps"]?.doubleValue { where_ += String(format: " · %.0f km/h", v * 3.6) }
        if let t = gps["track_deg"]?.doubleValue { where_ += String(format: " · heading %.0f°", t) }
        if let e = gps["eph_m"]?.doubleValue { where_ += String(format: " · ±%.0f m", e) }
        return [head, where_, counters(gps)]
    }

    /// "Place   at home since 18:02" (local time; the date too when not today), nil when the
    /// car is at no named place or privacy zone.
    static func renderPlace(_ place: JSONValue?) -> String? {
        guard let place, let name = place["name"]?.stringValue, let since = place["since"]?.stringValue.flatMap(ISO8601.parse) else { return nil }
        let today = TripFormat.dateTime(GPSTime(nanoseconds: Int64(Date().timeIntervalSince1970 * 1e9))).prefix(10)
        let day = TripFormat.dateTime(since)
        return "Place   at \(name) since \(day.hasPrefix(today) ? TripFormat.hourMinute(since) : day)"
    }

    /// "Journal disk full — 12 % of the memory buffer used, retrying every few seconds".
    static func renderJournalProblem(_ status: String, _ journal: JSONValue) -> String {
        let pending = journal["pending_bytes"]?.doubleValue ?? 0
        let buffer = journal["buffer_bytes"]?.doubleValue ?? 0
        let used = buffer > 0 ? min(100, Int((pending / buffer * 100).rounded(.up))) : 0
        var line = "Journal \(status) — \(used) % of the memory buffer used, retrying every few seconds"
        if let dropped = journal["dropped_points"]?.doubleValue, dropped > 0 { line += " · \(Int(dropped)) points dropped" }
        return line
    }

    /// "Power   under-voltage now, throttled · since boot: under-voltage, throttled"; nil when
    /// the flags are unavailable (not a Raspberry Pi).
    static func renderPower(_ power: JSONValue) -> String? {
        guard let status = power["status"]?.stringValue, status != "unavailable" else { return nil }
        func names(_ key: String) -> [String] { if case .array(let a)? = power[key] { return a.compactMap(\.stringValue) } else { return [] } }
        let now = names("now"), since = names("since_boot")
        var line = "Power   " + (now.isEmpty ? "supply ok" : now.joined(separator: ", ") + " now")
        if !since.isEmpty { line += " · since boot: " + since.joined(separator: ", ") }
        if let flags = power["throttled_flags"]?.stringValue { line += " (\(flags))" }
        return line
    }

    /// "OBD     golf: engine running, 1304 rpm · fuel 66.7 % · odometer 5999.6 km · battery 13.1 V",
    /// the car (VIN, known or not), then one line per fault code.
    static func renderOBD(_ obd: JSONValue) -> [String] {
        let name = obd["source"]?.stringValue ?? "obd"
        guard obd["connected"]?.boolValue == true else { return ["OBD     \(name): adapter not connected (retrying)"] }
        guard obd["car_answers"]?.boolValue == true else {
            let volts = obd["battery_v"]?.doubleValue.map { String(format: " · battery %.1f V", $0) } ?? ""
            return ["OBD     \(name): adapter connected, the car does not answer (ignition off)\(volts)"]
        }
        var head = "OBD     \(name)"
        if let v = obd["vehicle"]?.stringValue { head += " (\(v))" }
        switch obd["engine_running"]?.boolValue {
        case true?: head += ": engine running" + (obd["rpm"]?.doubleValue.map { String(format: ", %.0f rpm", $0) } ?? "")
        case false?: head += ": engine off"
        case nil: head += ": engine state not read yet"
        }
        if let f = obd["fuel_percent"]?.doubleValue { head += String(format: " · fuel %.1f %%", f) }
        if let km = obd["odometer_km"]?.doubleValue { head += String(format: " · odometer %.1f km", km) }
        if let v = obd["battery_v"]?.doubleValue {
            head += String(format: " · battery %.1f V", v)
            if obd["battery_low"]?.boolValue == true { head += String(format: " LOW (floor %.1f V)", obd["battery_floor_v"]?.doubleValue ?? 0) }
        }
        var lines = [head]
        if let vin = obd["vin"]?.stringValue {
            var car = "        VIN \(vin)"
            let about = [obd["manufacturer"]?.stringValue, obd["model_year"]?.doubleValue.map { String(Int($0)) }].compactMap { $0 }
            if !about.isEmpty { car += " (\(about.joined(separator: ", ")))" }
            if obd["vin_known"]?.boolValue == false { car += " — unknown car: add vin = \"\(vin)\" to its [[vehicle]]" }
            lines.append(car)
        }
        if case .array(let codes)? = obd["fault_codes"] {
            for c in codes {
                let code = c["code"]?.stringValue ?? "?"
                let kind = c["pending"]?.boolValue == true ? "pending" : "stored"
                lines.append("        fault \(code) (\(kind))" + (c["description"]?.stringValue.map { ": \($0)" } ?? ""))
            }
        }
        if let n = obd["rejected"]?.doubleValue, n > 0 { lines.append("        \(Int(n)) adapter replies refused as garbage") }
        return lines
    }

    static func counters(_ gps: JSONValue) -> String {
        let fixes = Int(gps["fixes"]?.doubleValue ?? 0)
        let rejected = Int(gps["rejected"]?.doubleValue ?? 0)
        return "        fixes \(fixes) · rejected \(rejected)"
    }

    static func renderTrip(_ label: String, _ trip: JSONValue?, idle: String) -> [String] {
        guard let trip, !trip.isNull else { return idle.isEmpty ? [] : ["\(label.padding(toLength: 8, withPad: " ", startingAt: 0))\(idle)"] }
        let id = trip["id"]?.stringValue ?? "?"
        let km = (trip["distance_m"]?.doubleValue ?? 0) / 1000
        let duration = Int(trip["duration_s"]?.doubleValue ?? 0)
        let hms = String(format: "%d:%02d:%02d", duration / 3600, duration / 60 % 60, duration % 60)
        let vehicle = trip["vehicle"].flatMap { $0["name"]?.stringValue ?? $0["id"]?.stringValue }
        let active = trip["active"]?.boolValue == true
        var head = "\(label.padding(toLength: 8, withPad: " ", startingAt: 0))\(active ? "recording" : "ended") trip \(id)"
        if let vehicle { head += " (\(vehicle))" }
        if let place = trip["start_place"]?.stringValue { head += " from \(place)" }
        head += String(format: " — %.1f km, %@", km, hms)
        if active, let v = trip["speed_mps"]?.doubleValue { head += String(format: ", %.0f km/h", v * 3.6) }
        var detail = "        "
        detail += String(format: "max %.0f km/h · avg %.0f km/h · %d points", (trip["max_speed_mps"]?.doubleValue ?? 0) * 3.6,
                         (trip["avg_speed_mps"]?.doubleValue ?? 0) * 3.6, Int(trip["points"]?.doubleValue ?? 0))
        detail += " · " + started(trip, duration: duration, active: active)
        if !active {
            let by = trip["end_reason"]?.stringValue.map { " by \($0)" } ?? ""
            detail += " · ended \(trip["ended_at"]?.stringValue ?? "without a GPS time")\(by)"
        }
        return [head, detail]
    }

    /// "started 2026-…Z by power:ACAD"; before the receiver has given a time, what a person
    /// can read instead of a question mark: "started 2 min ago by service, waiting for GPS time".
    static func started(_ trip: JSONValue, duration: Int, active: Bool) -> String {
        let reason = trip["start_reason"]?.stringValue.map { " by \($0)" } ?? ""
        if let at = trip["started_at"]?.stringValue { return "started \(at)\(reason)" }
        guard active else { return "started without a GPS time\(reason)" }
        return "started \(ago(duration))\(reason), waiting for GPS time"
    }

    /// "just now", "42 s ago", "2 min ago", "1 h 5 min ago".
    static func ago(_ seconds: Int) -> String {
        switch seconds {
        case ..<1: "just now"
        case ..<60: "\(seconds) s ago"
        case ..<3600: "\(seconds / 60) min ago"
        default: seconds % 3600 < 60 ? "\(seconds / 3600) h ago" : "\(seconds / 3600) h \(seconds / 60 % 60) min ago"
        }
    }
}
