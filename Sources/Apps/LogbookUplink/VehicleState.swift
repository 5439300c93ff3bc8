// SPDX-License-Identifier: MIT
public import LogbookCore
import LogbookGarage
import LogbookRecords

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
    /// The name of the place (or privacy zone) the car arrived at, nil elsewhere.
    public var place: String?

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
        place = live["place"]?["name"]?.stringValue
    }
}

/// The retained per-vehicle payloads Home Assistant's entities read.
public enum VehicleState {
    /// `…/vehicle/<id>/state`: the keys of ``HADiscovery/entities`` (SI converted to what HA
    /// shows: km/h, km, minutes, days; `null` = unknown, which HA's numeric sensors accept).
    /// `through`: the journal sequence the figures include (`journal_seq`).
    public static func state(vehicle: String, live: LiveView?, figures: LedgerView.VehicleFigures?, through: UInt64 = 0) -> JSONValue {
        let mine = live.flatMap { $0.tripVehicle == vehicle ? $0 : nil }
        let speed: Double = mine.map { (($0.speed ?? 0) * 36).rounded() / 10 } ?? 0
        let tripKm: JSONValue = mine == nil ? .number(0) : km(mine?.tripDistance)
        let tripMinutes: JSONValue = mine == nil ? .number(0) : minutes(mine?.tripDuration)
        let last = figures?.lastTrip
        let service = figures?.service
        var members: [(String, JSONValue)] = [("vehicle", .string(vehicle)), ("driving", .bool(mine?.driving ?? false))]
        members.append(("speed_kmh", .number(speed)))
        members.append(("trip_id", .number(mine?.tripID)))
        members.append(("trip_distance_km", tripKm))
        members.append(("trip_duration_min", tripMinutes))
        members.append(("odometer_km", .number(figures?.odometerKm.map { ($0 * 100).rounded() / 100 })))
        members.append(("logged_km", km(figures?.loggedMeters ?? 0)))
        members.append(("last_trip_id", last.map { .number(Double($0.number.rawValue)) } ?? .null))
        members.append(("last_trip_distance_km", km(last?.distance)))
        members.append(("last_trip_duration_min", minutes(last?.duration)))
        members.append(("last_trip_end", .string(last?.end.map(ISO8601.format))))
        members.append(("last_trip_withdrawn", .bool(figures?.lastTripWithdrawn ?? false)))
        members.append(("fuel_economy_l_100km", .number(figures?.fuelEconomy.map { ($0 * 100).rounded() / 100 })))
        members.append(("service_due", .string(service.flatMap { $0.state == .unknown ? nil : $0.state.rawValue })))
        members.append(("service_due_km", .number(service?.kmLeft.map { $0.rounded() })))
        members.append(("service_due_days", .number(service?.daysLeft.map { ($0 * 10).rounded() / 10 })))
        members.append(("service", service?.json ?? .null))
        let faults = figures?.faultCodes ?? []
        members.append(("fault_codes", .number(Double(faults.count))))
        members.append(("faults", faultList(faults)))
        members.append(("gps_time", .string(mine?.gpsTime)))
        members.append(("journal_seq", .number(Double(through))))
        return .object(members)
    }

    /// `…/vehicle/<id>/last_trip`: the newest trip that counts; nil without one (nothing is
    /// published then: HA's timestamp sensor stays unknown).
    public static func lastTrip(_ figures: LedgerView.VehicleFigures?) -> JSONValue? {
        guard let t = figures?.lastTrip, let end = t.end else { return nil }
        return .object([
            ("trip", .number(Double(t.number.rawValue))), ("end", .string(ISO8601.format(end))),
            ("distance_km", km(t.distance)), ("duration_min", minutes(t.duration)),
        ])
    }

    /// The "Fault codes" sensor's attributes: `codes` (each `code`, `pending`, `description`,
    /// the SAE J2012 generic one or `null`), `stored` and `pending` counts.
    static func faultList(_ faults: [FaultCodeSignal]) -> JSONValue {
        .object([
            ("codes", .array(faults.map(faultJSON))),
            ("stored", .number(Double(faults.filter { !$0.pending }.count))),
            ("pending", .number(Double(faults.filter(\.pending).count))),
        ])
    }

    /// One code as events and attributes show it.
    static func faultJSON(_ f: FaultCodeSignal) -> JSONValue {
        .object([("code", .string(f.code.description)), ("pending", .bool(f.pending)), ("description", .string(f.genericDescription))])
    }

    static func km(_ m: Double?) -> JSONValue { .number(m.map { ($0 / 10).rounded() / 100 }) }
    static func minutes(_ s: Double?) -> JSONValue { .number(s.map { ($0 / 6).rounded() / 10 }) }

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
