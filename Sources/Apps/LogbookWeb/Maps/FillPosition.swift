// SPDX-License-Identifier: MIT
internal import HTTPTypes
internal import LogbookCore
internal import LogbookStore

/// A fill-up's position when none is typed, as `logbook fuel add` takes it: logbookd's fix when
/// it is younger than 10 minutes, else where the vehicle's last trip ended.
extension WebApp {
    /// A live fix older than this is not where the car is (10 minutes).
    static let fixFreshness = 600.0

    /// The car's position for a fill-up of `vehicle` (any vehicle's last trip when nil), and
    /// where it came from, for the form's label.
    func fillPosition(vehicle: String?) async -> (lat: Double, lon: Double, source: String)? {
        if let live = freshCarPosition() { return (live.lat, live.lon, "the car's live fix") }
        let found = try? await shelf.read { index -> (Double, Double, String)? in
            var found: (Double, Double, String)?
            try index.forEachTrip(matching: TripQuery(vehicleID: vehicle, limit: 20, includeDiscarded: false, includeVoided: false)) { t in
                guard let end = t.end else { return true }
                found = (end.latitude, end.longitude, "the end of trip \(t.id)")
                return false
            }
            return found
        }
        return (found ?? nil).map { (lat: $0.0, lon: $0.1, source: $0.2) }
    }

    /// The live fix when the document is from the last 10 minutes and its fix no older than
    /// 10 minutes before that (a fix dated ahead of the clock counts as current).
    func freshCarPosition() -> (lat: Double, lon: Double)? {
        guard let doc = try? live.current().json, let updated = doc["updated_at"]?.stringValue.flatMap(ISO8601.parse),
            (doc["gps"]?["mode"]?.doubleValue ?? 0) >= 2, let lat = doc["gps"]?["lat"]?.doubleValue, let lon = doc["gps"]?["lon"]?.doubleValue
        else { return nil }
        let now = GPSClock.now()
        guard now.seconds(since: updated) <= Self.fixFreshness else { return nil }
        if let fix = doc["gps"]?["time"]?.stringValue.flatMap(ISO8601.parse), updated.seconds(since: fix) > Self.fixFreshness { return nil }
        return (lat, lon)
    }

    /// `fields` with the car's position (``fillPosition(vehicle:)``) when the form's
    /// `car_position` box is ticked and no position was typed.
    func withFillPosition(_ fields: [(String, JSONValue)], _ posted: FormFields) async throws(APIError) -> [(String, JSONValue)] {
        guard posted.values("car_position").contains("on"), !fields.contains(where: { $0.0 == "lat" || $0.0 == "lon" }) else { return fields }
        let vehicle = fields.first { $0.0 == "vehicle" }?.1.stringValue
        guard let p = await fillPosition(vehicle: vehicle) else {
            throw APIError(.unprocessableContent, "no_fix", "logbookd has no recent fix and no trip has ended: type the position")
        }
        return fields + [("lat", .number(p.lat)), ("lon", .number(p.lon))]
    }
}
