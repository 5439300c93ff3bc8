// SPDX-License-Identifier: MIT
public import LogbookCore

/// What `live.json` says, reduced to what the per-vehicle topics need.
public struct LiveView: Sendable, Equatable {
    /// The vehicle of the active trip (nil: idle, or a trip without vehicle).
    public var tripVehicle: String?
    public var driving: Bool
    public var tripID: Double?
    public var tripDistance: Double?
    public var tripDuration: Double?
    public var speed: Double?
    public var latitude: Double?
    public var longitude: Double?
    public var eph: Double?
    public var gpsTime: String?

    /// Reads the daemon's live document (schema 1); nil when it is not one.
    public init?(live: JSONValue, defaultVehicle: String) {
        guard live["schema"]?.doubleValue == 1, let gps = live["gps"] else { return nil }
        let trip = live["trip"].flatMap { $0.isNull ? nil : $0 }
        driving = trip?["active"]?.boolValue ?? (trip != nil)
        tripVehicle = trip.map { $0["vehicle"]?["id"]?.stringValue ?? defaultVehicle }
        tripID = trip?["id"]?.doubleValue ?? trip?["id"]?.stringValue.flatMap(Double.init)
        tripDistance = trip?["distance_m"]?.doubleValue
        tripDuration = trip?["duration_s"]?.doubleValue
        speed = gps["speed_mps"]?.doubleValue ?? trip?["speed_mps"]?.doubleValue
        latitude = gps["lat"]?.doubleValue
        longitude = gps["lon"]?.doubleValue
        eph = gps["eph_m"]?.doubleValue
        gpsTime = gps["time"]?.stringValue
    }
}

/// The retained per-vehicle payloads Home Assistant's entities read.
public enum VehicleState {
    /// `…/vehicle/<id>/state`: the keys of ``HADiscovery/entities`` (SI converted to what HA
    /// shows: km/h, km, minutes; `null` = unknown).
    public static func state(vehicle: String, live: LiveView?, ledger: VehicleLedger) -> JSONValue {
        let mine = live.flatMap { $0.tripVehicle == vehicle ? $0 : nil }
        let figures = ledger.vehicles[vehicle] ?? VehicleLedger.Figures()
        func km(_ m: Double?) -> JSONValue { .number(m.map { ($0 / 10).rounded() / 100 }) }
        func minutes(_ s: Double?) -> JSONValue { .number(s.map { ($0 / 6).rounded() / 10 }) }
        let speed: Double = mine.map { (($0.speed ?? 0) * 36).rounded() / 10 } ?? 0
        let tripKm: JSONValue = mine == nil ? .number(0) : km(mine?.tripDistance)
        let tripMinutes: JSONValue = mine == nil ? .number(0) : minutes(mine?.tripDuration)
        let odometer: JSONValue = km(figures.odometerEstimateKm.map { $0 * 1000 })
        var members: [(String, JSONValue)] = [("vehicle", .string(vehicle)), ("driving", .bool(mine?.driving ?? false))]
        members.append(("speed_kmh", .number(speed)))
        members.append(("trip_id", .number(mine?.tripID)))
        members.append(("trip_distance_km", tripKm))
        members.append(("trip_duration_min", tripMinutes))
        members.append(("odometer_km", odometer))
        members.append(("logged_km", km(figures.loggedMeters)))
        members.append(("last_trip_distance_km", km(figures.lastTripMeters)))
        members.append(("last_trip_duration_min", minutes(figures.lastTripSeconds)))
        members.append(("last_trip_end", .string(figures.lastTripEnd.map(ISO8601.format))))
        members.append(("gps_time", .string(mine?.gpsTime)))
        return .object(members)
    }

    /// `…/vehicle/<id>/location`: what HA's MQTT `device_tracker` reads from
    /// `json_attributes_topic` (latitude, longitude, gps_accuracy in metres); nil without a fix.
    public static func location(_ live: LiveView) -> JSONValue? {
        guard let lat = live.latitude, let lon = live.longitude, lat.isFinite, lon.isFinite else { return nil }
        return .object([
            ("latitude", .number(lat)), ("longitude", .number(lon)),
            ("gps_accuracy", .number(live.eph.map { $0.rounded() } ?? 0)),
            ("gps_time", .string(live.gpsTime)),
        ])
    }
}
