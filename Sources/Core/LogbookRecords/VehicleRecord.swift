// SPDX-License-Identifier: MIT
public import LogbookCore

/// A vehicle (`type` `vehicle`, subject: its id, e.g. `golf`). Added with `logbook vehicles
/// add`, the web app, from `[[vehicle]]` of the configuration file (origin `config`) or by the
/// OBD adapter for a VIN it does not know (origin `obd`); retired with a void.
public struct VehicleRecord: EntryRecord {
    public static let type = "vehicle"
    /// Fuel types a vehicle may have.
    public static let fuelTypes = ["petrol", "diesel", "e85", "lpg", "cng", "hydrogen", "electric", "other"]

    public static let schema: [EntryField] = [
        EntryField("name", .text(maxLength: 80)),
        EntryField("make", .text(maxLength: 80)),
        EntryField("model", .text(maxLength: 80)),
        EntryField("year", .integer(1886...2100)),
        EntryField("registration", .text(maxLength: 20)),
        EntryField("fuel_type", .choice(fuelTypes)),
        EntryField("tank_l", .number(1...2000)),
        EntryField("initial_odometer_km", .number(0...10_000_000)),
        EntryField("vin", .vin),
        EntryField("driver", .text(maxLength: 80)),
    ]

    public var name: String?
    public var make: String?
    public var model: String?
    public var year: Int?
    public var registration: String?
    public var fuelType: String?
    public var tankLitres: Double?
    public var initialOdometerKm: Double?
    /// The vehicle identification number (the OBD adapter reads it to tell cars apart).
    public var vin: String?
    /// Who drives it unless a trip says otherwise.
    public var driver: String?

    public init(
        name: String? = nil, make: String? = nil, model: String? = nil, year: Int? = nil, registration: String? = nil,
        fuelType: String? = nil, tankLitres: Double? = nil, initialOdometerKm: Double? = nil, vin: String? = nil,
        driver: String? = nil
    ) {
        self.name = name
        self.make = make
        self.model = model
        self.year = year
        self.registration = registration
        self.fuelType = fuelType
        self.tankLitres = tankLitres
        self.initialOdometerKm = initialOdometerKm
        self.vin = vin
        self.driver = driver
    }

    public init(fields f: FieldReader) throws(EntryProblem) {
        self.init(
            name: f.string("name"), make: f.string("make"), model: f.string("model"), year: f.integer("year"),
            registration: f.string("registration"), fuelType: f.string("fuel_type"), tankLitres: f.number("tank_l"),
            initialOdometerKm: f.number("initial_odometer_km"), vin: f.string("vin"), driver: f.string("driver"))
    }

    public var fields: JSONValue {
        var w = FieldWriter()
        w.set("name", name)
        w.set("make", make)
        w.set("model", model)
        w.set("year", year)
        w.set("registration", registration)
        w.set("fuel_type", fuelType)
        w.set("tank_l", tankLitres)
        w.set("initial_odometer_km", initialOdometerKm)
        w.set("vin", vin)
        w.set("driver", driver)
        return w.json
    }

    /// The fields of `newer` that differ from this record's (what an amendment must carry).
    public func changes(to newer: VehicleRecord) -> JSONValue {
        let old = FieldReader(fields)
        guard case .object(let list) = newer.fields else { return .object([]) }
        return .object(list.filter { key, value in
            switch value {
            case .string(let s): old.string(key) != s
            case .number(let n): old.number(key) != n
            default: true
            }
        })
    }

    /// The live state's and the trip list's vehicle for `id`.
    public func vehicle(id: String) -> Vehicle {
        Vehicle(id: id, name: name ?? id, make: make, model: model, year: year, registration: registration)
    }
}

/// A vehicle as `[[vehicle]]` of the configuration file names it: logbookd journals it (origin
/// `config`) when the journal lacks it or the file changed it; readers use it until then.
public struct ConfiguredVehicle: Sendable, Hashable {
    public var id: String
    public var record: VehicleRecord

    public init(id: String, record: VehicleRecord) {
        self.id = id
        self.record = record
    }

    /// The live state's and the trip list's form.
    public var vehicle: Vehicle { record.vehicle(id: id) }
}
