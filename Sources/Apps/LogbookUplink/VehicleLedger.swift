// SPDX-License-Identifier: MIT
public import LogbookCore
public import LogbookJournal

/// Per-vehicle figures the journal implies and Home Assistant shows: the last trip, distance
/// logged, the odometer estimate, names. Folded from the records as the MQTT sink delivers
/// them and saved with its cursor, so a restart does not re-read the whole journal.
public struct VehicleLedger: Sendable, Equatable {
    /// One vehicle's figures.
    public struct Figures: Sendable, Equatable {
        public var name: String?
        public var make: String?
        public var model: String?
        /// Metres of kept (not discarded) trips.
        public var loggedMeters: Double = 0
        /// Last `odometer` entry (km) and the logged metres when it was made.
        public var odometerKm: Double?
        public var loggedMetersAtOdometer: Double = 0
        public var lastTripID: UInt64?
        public var lastTripMeters: Double?
        public var lastTripSeconds: Double?
        public var lastTripEnd: GPSTime?

        /// The reading plus what was driven since; without a reading, nil.
        public var odometerEstimateKm: Double? {
            odometerKm.map { $0 + (loggedMeters - loggedMetersAtOdometer) / 1000 }
        }
    }

    public private(set) var vehicles: [String: Figures] = [:]
    /// Open trips and the vehicle each belongs to.
    public private(set) var openTrips: [UInt64: String] = [:]
    /// The vehicle of the most recent trip.
    public private(set) var lastVehicle: String?

    public init() {}

    /// Vehicle ids, sorted.
    public var ids: [String] { vehicles.keys.sorted() }

    /// Folds one record in; returns whether a vehicle's figures changed.
    @discardableResult
    public mutating func apply(_ record: JournalRecord, defaultVehicle: String) -> Bool {
        switch record {
        case .tripStarted(let s):
            let v = s.vehicleID ?? defaultVehicle
            openTrips[s.id.rawValue] = v
            lastVehicle = v
            if vehicles[v] == nil { vehicles[v] = Figures() }
            return true
        case .tripEnded(let e):
            let v = openTrips.removeValue(forKey: e.id.rawValue) ?? lastVehicle ?? defaultVehicle
            var x = vehicles[v] ?? Figures()
            if !e.discarded {
                x.loggedMeters += e.summary.distance
                x.lastTripID = e.id.rawValue
                x.lastTripMeters = e.summary.distance
                x.lastTripSeconds = e.summary.duration
                x.lastTripEnd = e.gpsTime
            }
            vehicles[v] = x
            return true
        case .tripReopened(let r):
            // Its next end carries the whole trip's figures: take back what its last end added.
            let v = r.vehicleID ?? lastVehicle ?? defaultVehicle
            openTrips[r.id.rawValue] = v
            lastVehicle = v
            var x = vehicles[v] ?? Figures()
            if x.lastTripID == r.id.rawValue, let m = x.lastTripMeters {
                x.loggedMeters -= m
                x.lastTripMeters = nil
                x.lastTripSeconds = nil
                x.lastTripID = nil
            }
            vehicles[v] = x
            return true
        case .entry(let u):
            return applyEntry(u)
        case .points, .signal:
            return false
        }
    }

    /// Entries the ledger understands: `vehicle` (name, make, model) and `odometer`
    /// (`km`, subject = vehicle id). Others (fuel, service, …) are for the garage sensors.
    private mutating func applyEntry(_ u: UserEntry) -> Bool {
        switch (u.type, u.action) {
        case ("vehicle", .add), ("vehicle", .amend):
            var x = vehicles[u.subject] ?? Figures()
            if let s = u.fields["name"]?.stringValue { x.name = s }
            if let s = u.fields["make"]?.stringValue { x.make = s }
            if let s = u.fields["model"]?.stringValue { x.model = s }
            vehicles[u.subject] = x
            return true
        case ("odometer", .add), ("odometer", .amend):
            guard let km = u.fields["km"]?.doubleValue, km.isFinite, km >= 0 else { return false }
            var x = vehicles[u.subject] ?? Figures()
            x.odometerKm = km
            x.loggedMetersAtOdometer = x.loggedMeters
            vehicles[u.subject] = x
            return true
        default:
            return false
        }
    }

    /// The cursor-file form.
    public var json: JSONValue {
        .object([
            ("vehicles", .object(ids.map { id in
                let v = vehicles[id] ?? Figures()
                return (id, .object([
                    ("name", .string(v.name)), ("make", .string(v.make)), ("model", .string(v.model)),
                    ("logged_m", .number(v.loggedMeters)), ("odometer_km", .number(v.odometerKm)),
                    ("logged_m_at_odometer", .number(v.loggedMetersAtOdometer)),
                    ("last_trip", v.lastTripID.map { .number(Double($0)) } ?? .null),
                    ("last_trip_m", .number(v.lastTripMeters)), ("last_trip_s", .number(v.lastTripSeconds)),
                    ("last_trip_end_ns", .string(v.lastTripEnd.map { String($0.nanoseconds) })),
                ]))
            })),
            ("open_trips", .object(openTrips.keys.sorted().map { (String($0), .string(openTrips[$0])) })),
            ("last_vehicle", .string(lastVehicle)),
        ])
    }

    /// Restores ``json``; unknown or damaged parts are skipped.
    public init(json: JSONValue) {
        if case .object(let vs)? = json["vehicles"] {
            for (id, j) in vs {
                var v = Figures()
                v.name = j["name"]?.stringValue
                v.make = j["make"]?.stringValue
                v.model = j["model"]?.stringValue
                v.loggedMeters = j["logged_m"]?.doubleValue ?? 0
                v.odometerKm = j["odometer_km"]?.doubleValue
                v.loggedMetersAtOdometer = j["logged_m_at_odometer"]?.doubleValue ?? 0
                v.lastTripID = j["last_trip"]?.doubleValue.map { UInt64(max(0, $0)) }
                v.lastTripMeters = j["last_trip_m"]?.doubleValue
                v.lastTripSeconds = j["last_trip_s"]?.doubleValue
                v.lastTripEnd = j["last_trip_end_ns"]?.stringValue.flatMap { Int64($0) }.map { GPSTime(nanoseconds: $0) }
                vehicles[id] = v
            }
        }
        if case .object(let trips)? = json["open_trips"] {
            for (k, v) in trips { if let id = UInt64(k), let s = v.stringValue { openTrips[id] = s } }
        }
        lastVehicle = json["last_vehicle"]?.stringValue
    }
}
