// SPDX-License-Identifier: MIT
public import LogbookCore
public import LogbookRecords

/// A vehicle as its entries (and the configuration) describe it now.
public struct GarageVehicle: Sendable, Hashable {
    public var id: String
    /// The current value of every field (`GarageFields.vehicle` names), journal over config.
    public var fields: [String: JSONValue]
    public var retired: Bool
    /// Listed in `[[vehicle]]` of the configuration file.
    public var configured: Bool
    /// The journal entries about it, oldest first (for `--history`).
    public var history: [RecordedGarageEntry]

    public var name: String { fields["name"]?.stringValue ?? id }
    public var registration: String? { fields["registration"]?.stringValue }
    public var initialOdometerKm: Double? { fields["initial_odometer_km"]?.doubleValue }
}

/// A fill-up with its amendments applied.
public struct FuelLog: Sendable, Hashable {
    public var id: String
    public var vehicle: String
    public var at: GPSTime
    public var odometerKm: Double
    public var litres: Double
    /// The total paid, in ``currency``.
    public var price: Double
    public var currency: String
    /// The tank was filled to the brim (the full-tank method measures between these).
    public var full: Bool
    /// A fill before this one was not logged: the interval ending here is unknown.
    public var missed: Bool
    public var station: String?
    public var stationAddress: String?
    public var latitude: Double?
    public var longitude: Double?
    public var voided: Bool
    /// The journal entries about it, oldest first; more than one means it was changed.
    public var history: [RecordedGarageEntry]

    init?(_ id: String, fields f: [String: JSONValue]) {
        guard let vehicle = f["vehicle"]?.stringValue, let at = f["at"]?.stringValue.flatMap(ISO8601.parse),
            let odometer = f["odometer_km"]?.doubleValue, let litres = f["litres"]?.doubleValue,
            let price = f["price"]?.doubleValue, let currency = f["currency"]?.stringValue
        else { return nil }
        self.id = id
        self.vehicle = vehicle
        self.at = at
        self.odometerKm = odometer
        self.litres = litres
        self.price = price
        self.currency = currency
        self.full = f["full"]?.boolValue ?? true
        self.missed = f["missed"]?.boolValue ?? false
        self.station = f["station"]?.stringValue
        self.stationAddress = f["station_address"]?.stringValue
        self.latitude = f["lat"]?.doubleValue
        self.longitude = f["lon"]?.doubleValue
        self.voided = false
        self.history = []
    }

    /// Price per litre in ``currency``.
    public var unitPrice: Double { litres > 0 ? price / litres : 0 }
}

/// An odometer reading (a fuel log's odometer counts as one too).
public struct OdometerReading: Sendable, Hashable {
    public var id: String
    public var vehicle: String
    public var at: GPSTime
    public var odometerKm: Double
    public var voided: Bool
}

/// A trip's current classification and how it came to be.
public struct TripClassification: Sendable, Hashable {
    public var trip: TripID
    /// `business`, `private` or `commute`.
    public var tripClass: String
    public var purpose: String?
    public var partner: String?
    public var destination: String?
    /// Every classification entry of the trip, oldest first: more than one means it changed.
    public var history: [RecordedGarageEntry]

    /// When the current classification was entered.
    public var classifiedAt: GPSTime? { history.last?.recordedAt }
    /// The trip was classified more than once (the report says so, and when).
    public var changed: Bool { history.count > 1 }
}
