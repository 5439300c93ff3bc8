// SPDX-License-Identifier: MIT
public import LogbookCore

/// A fill-up (`type` `fuel`, subject: its id — `<vehicle>@<compact UTC time>`, e.g.
/// `golf@20261123T093000Z`). The price is the total paid.
public struct FuelRecord: EntryRecord {
    public static let type = "fuel"

    public static let schema: [EntryField] = [
        EntryField("vehicle", .id),
        EntryField("at", .time),
        EntryField("odometer_km", .number(0...10_000_000)),
        EntryField("litres", .number(0...2000)),
        EntryField("price", .number(0...1_000_000)),
        EntryField("currency", .currency),
        EntryField("full", .bool),
        EntryField("missed", .bool),
        EntryField("station", .text(maxLength: 120)),
        EntryField("station_address", .text(maxLength: 200)),
        EntryField("lat", .number(-90...90)),
        EntryField("lon", .number(-180...180)),
        EntryField("note", .text(maxLength: 500)),
        EntryField("pending", .text(maxLength: 80)),
    ]

    public var vehicle: String
    public var at: GPSTime
    public var odometerKm: Double
    public var litres: Double
    /// The total paid, in ``currency``.
    public var price: Double
    /// ISO 4217.
    public var currency: String
    /// The tank was filled to the brim (the full-tank method measures between these).
    public var full: Bool
    /// A fill before this one was not logged: the interval ending here is unknown.
    public var missed: Bool
    public var station: String?
    public var stationAddress: String?
    public var latitude: Double?
    public var longitude: Double?
    public var note: String?
    /// The pending fill-up (``PendingFillRecord``, its id) this one completes.
    public var pending: String?

    public init(
        vehicle: String, at: GPSTime, odometerKm: Double, litres: Double, price: Double, currency: String, full: Bool = true,
        missed: Bool = false, station: String? = nil, stationAddress: String? = nil, latitude: Double? = nil,
        longitude: Double? = nil, note: String? = nil, pending: String? = nil
    ) {
        self.vehicle = vehicle
        self.at = at
        self.odometerKm = odometerKm
        self.litres = litres
        self.price = price
        self.currency = currency
        self.full = full
        self.missed = missed
        self.station = station
        self.stationAddress = stationAddress
        self.latitude = latitude
        self.longitude = longitude
        self.note = note
        self.pending = pending
    }

    public init(fields f: FieldReader) throws(EntryProblem) {
        self.init(
            vehicle: try f.requiredString("vehicle"), at: try f.requiredTime("at"), odometerKm: try f.requiredNumber("odometer_km"),
            litres: try f.requiredNumber("litres"), price: try f.requiredNumber("price"), currency: try f.requiredString("currency"),
            full: f.bool("full") ?? true, missed: f.bool("missed") ?? false, station: f.string("station"),
            stationAddress: f.string("station_address"), latitude: f.number("lat"), longitude: f.number("lon"), note: f.string("note"),
            pending: f.string("pending"))
    }

    public var fields: JSONValue {
        var w = FieldWriter()
        w.set("vehicle", vehicle)
        w.set("at", at)
        w.set("odometer_km", odometerKm)
        w.set("litres", litres)
        w.set("price", price)
        w.set("currency", currency)
        w.set("full", full)
        w.set("missed", missed)
        w.set("station", station)
        w.set("station_address", stationAddress)
        w.set("lat", latitude)
        w.set("lon", longitude)
        w.set("note", note)
        w.set("pending", pending)
        return w.json
    }

    /// Price per litre in ``currency``.
    public var unitPrice: Double { litres > 0 ? price / litres : 0 }

    /// A fill-up's or reading's id: `<vehicle>@<compact UTC time>`.
    public static func subject(vehicle: String, at: GPSTime) -> String {
        vehicle + "@" + String(ISO8601.format(at).unicodeScalars.filter { $0 != "-" && $0 != ":" }.map(Character.init))
    }
}
