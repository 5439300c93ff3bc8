// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookExport
import LogbookStore

/// Figures and times as a person reads them: metric or imperial, local time.
struct TripFormat {
    let units: UnitSystem

    /// `242.7 km` / `150.8 mi`.
    func distance(_ meters: Double) -> String {
        switch units {
        case .metric: String(format: "%.1f km", meters / 1000)
        case .imperial: String(format: "%.1f mi", meters / 1609.344)
        }
    }

    /// `82 km/h` / `51 mph`.
    func speed(_ mps: Double) -> String {
        switch units {
        case .metric: String(format: "%.0f km/h", mps * 3.6)
        case .imperial: String(format: "%.0f mph", mps * 3600 / 1609.344)
        }
    }

    /// `2 h 58 min`, `12 min`, `45 s`.
    /// `Home → near Thun, CH`; a side without a name shows its coordinates (4 decimals, ~10 m).
    static func route(_ t: TripOverview) -> String {
        TripText.end(t.startPlace, t.start) + " → " + TripText.end(t.endPlace, t.end)
    }

    static func duration(_ seconds: Double) -> String {
        let s = max(0, seconds.rounded())
        if s < 60 { return "\(Int(s)) s" }
        let minutes = Int((s / 60).rounded())
        if minutes < 60 { return "\(minutes) min" }
        return "\(minutes / 60) h \(minutes % 60) min"
    }

    /// A threshold from the config: `300 s`, `60 min`.
    static func threshold(_ seconds: Double) -> String {
        seconds >= 600 && seconds.truncatingRemainder(dividingBy: 60) == 0 ? "\(Int(seconds / 60)) min" : "\(Int(seconds)) s"
    }

    /// `2029-11-17 11:28` in the configured zone (``LocalZone``).
    static func dateTime(_ t: GPSTime) -> String { LocalZone.rules.dateTime(t) }

    /// `2029-11-17 11:28 CET`: the zone named, for a time standing alone.
    static func dateTimeWithZone(_ t: GPSTime) -> String { LocalZone.rules.dateTimeWithZone(t) }

    /// `11:28:07` in the configured zone.
    static func timeOfDay(_ t: GPSTime) -> String {
        let c = LocalZone.rules.wallClock(t)
        return String(format: "%02d:%02d:%02d", c.hour, c.minute, c.second)
    }

    /// `18:02` in the configured zone.
    static func hourMinute(_ t: GPSTime) -> String {
        let c = LocalZone.rules.wallClock(t)
        return String(format: "%02d:%02d", c.hour, c.minute)
    }

    /// `17 Nov` in local time.
    static func dayAndMonth(_ t: GPSTime) -> String {
        let c = LocalZone.rules.wallClock(t).date
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(c.day) \(months[(c.month - 1) % 12])"
    }

    /// The share summary: "Trip on 17 Nov, 242.7 km in 2 h 58 min, avg 82 km/h, max 130 km/h, Golf".
    func shareSummary(_ trip: TripOverview, vehicle: Vehicle?) -> String {
        var parts = ["Trip" + (trip.startedAt.map { " on \(Self.dayAndMonth($0))" } ?? "")]
        parts[0] += ", \(distance(trip.distance)) in \(Self.duration(trip.duration))"
        parts.append("avg \(speed(trip.averageSpeed))")
        parts.append("max \(speed(trip.maxSpeed))")
        if let vehicle { parts.append(vehicle.name) }
        return parts.joined(separator: ", ")
    }
}

/// Pads to `width` on the right (`left` aligned) or left.
func pad(_ s: String, _ width: Int, right: Bool = false) -> String {
    let n = s.count
    guard n < width else { return s }
    let fill = String(repeating: " ", count: width - n)
    return right ? fill + s : s + fill
}
