// SPDX-License-Identifier: MIT
import Foundation
import LogbookControl
import LogbookCore
import LogbookGarage
import LogbookSettings
import LogbookStore

/// Where the car is, for a fill-up typed without a position and for sorting stations: the
/// daemon's live fix when it is younger than ``freshness``, else the end of the vehicle's last
/// trip. `source` says which (`live` or `last_trip`); `description` says it for a person.
struct CarPosition {
    /// A live fix older than this is not where the car is now (10 minutes).
    static let freshness = 600.0

    var latitude: Double
    var longitude: Double
    var source: String
    var description: String

    var origin: FuelStations.Origin { FuelStations.Origin(latitude: latitude, longitude: longitude, source: source) }

    /// The live fix, else the last trip's end (of `vehicle` when given); nil when neither.
    /// For a time `at` more than ``freshness`` ago (a fill-up typed afterwards) the live fix
    /// is not where the car was: the end of the last trip that had ended by then.
    static func find(_ settings: ReaderSettings, vehicle: String?, at: GPSTime? = nil, now: Date = Date()) throws -> CarPosition? {
        if let at, now.timeIntervalSince1970 - at.seconds > freshness { return try lastTrip(settings, vehicle: vehicle, endedBy: at) }
        if let live = live(settings, now: now) { return live }
        return try lastTrip(settings, vehicle: vehicle)
    }

    /// logbookd's fix from `live.json`, when the daemon runs (its control socket answers a
    /// connection: a stopped daemon leaves its last document behind), published within 10 minutes, the
    /// receiver has a fix (mode 2 or 3) and the fix is no older than 10 minutes before that
    /// publication. A fix dated ahead of the system clock counts as current: the daemon judges
    /// time by its fixes when the clock is not trusted.
    static func live(_ settings: ReaderSettings, now: Date) -> CarPosition? {
        guard (try? ControlClient(socketPath: settings.daemon.controlSocketPath)) != nil,
            let (doc, _) = try? LiveStateReader(runtimeDirectory: settings.daemon.runtimeDirectory).read(),
            let updatedText = doc["updated_at"]?.stringValue, let updated = ISO8601.parse(updatedText),
            let gps = doc["gps"], let lat = gps["lat"]?.doubleValue, let lon = gps["lon"]?.doubleValue,
            (gps["mode"]?.doubleValue ?? 0) >= 2
        else { return nil }
        let published = now.timeIntervalSince1970 - updated.seconds
        guard published <= freshness else { return nil }
        let fixAge = gps["time"]?.stringValue.flatMap(ISO8601.parse).map { updated.seconds - $0.seconds } ?? 0
        guard fixAge <= freshness else { return nil }
        let age = max(0, published) + max(0, fixAge)
        return CarPosition(
            latitude: lat, longitude: lon, source: "live",
            description: "the car's live fix (\(NumberText.fixed(age, places: 0)) s old)")
    }

    /// The end of the newest kept trip of `vehicle` (any vehicle's when nil), of those that
    /// had ended by `endedBy` when given.
    static func lastTrip(_ settings: ReaderSettings, vehicle: String?, endedBy: GPSTime? = nil) throws -> CarPosition? {
        guard FileManager.default.fileExists(atPath: settings.journalDirectory) else { return nil }
        return try IndexAccess.withIndex(settings) { index in
            var found: CarPosition?
            let query = TripQuery(vehicleID: vehicle, until: endedBy, limit: endedBy == nil ? 20 : nil, includeDiscarded: false, includeVoided: false)
            try index.forEachTrip(matching: query) { trip in
                guard let end = trip.end else { return true }
                if let endedBy, (trip.endedAt ?? .init(seconds: .max)) > endedBy { return true }
                let when = trip.endedAt.map { " at " + ISO8601.format($0) } ?? ""
                found = CarPosition(
                    latitude: end.latitude, longitude: end.longitude, source: "last_trip",
                    description: "the end of trip \(trip.id)\(when)")
                return false
            }
            return found
        }
    }

    /// "48.13743, 11.57549".
    var coordinates: String { NumberText.fixed(latitude, places: 5) + ", " + NumberText.fixed(longitude, places: 5) }
}
