// SPDX-License-Identifier: MIT

/// The fields of each garage entry type, in stored order (`docs/garage.md`).
public enum GarageFields {
    /// Fuel types a vehicle may have.
    public static let fuelTypes = ["petrol", "diesel", "e85", "lpg", "cng", "hydrogen", "other"]
    /// Trip classes for the mileage report.
    public static let tripClasses = ["business", "private", "commute"]

    public static let vehicle: [GarageField] = [
        GarageField("name", .text(maxLength: 80)),
        GarageField("make", .text(maxLength: 80)),
        GarageField("model", .text(maxLength: 80)),
        GarageField("year", .integer(1886...2100)),
        GarageField("registration", .text(maxLength: 20)),
        GarageField("fuel_type", .choice(fuelTypes)),
        GarageField("tank_l", .number(1...2000)),
        GarageField("initial_odometer_km", .number(0...10_000_000)),
    ]

    public static let fuel: [GarageField] = [
        GarageField("vehicle", .id),
        GarageField("at", .time),
        GarageField("odometer_km", .number(0...10_000_000)),
        GarageField("litres", .number(0...2000)),
        GarageField("price", .number(0...1_000_000)),
        GarageField("currency", .currency),
        GarageField("full", .bool),
        GarageField("missed", .bool),
        GarageField("station", .text(maxLength: 120)),
        GarageField("station_address", .text(maxLength: 200)),
        GarageField("lat", .number(-90...90)),
        GarageField("lon", .number(-180...180)),
        GarageField("note", .text(maxLength: 500)),
    ]

    public static let odometer: [GarageField] = [
        GarageField("vehicle", .id),
        GarageField("at", .time),
        GarageField("odometer_km", .number(0...10_000_000)),
        GarageField("note", .text(maxLength: 500)),
    ]

    public static let tripClass: [GarageField] = [
        GarageField("class", .choice(tripClasses)),
        GarageField("purpose", .text(maxLength: 200)),
        GarageField("partner", .text(maxLength: 200)),
        GarageField("destination", .text(maxLength: 200)),
    ]

    public static let service: [GarageField] = [
        GarageField("vehicle", .id),
        GarageField("name", .text(maxLength: 80)),
        GarageField("every_km", .number(1...1_000_000)),
        GarageField("every_months", .integer(1...240)),
        GarageField("last_done_at", .time),
        GarageField("last_done_km", .number(0...10_000_000)),
        GarageField("note", .text(maxLength: 500)),
    ]

    public static let serviceDone: [GarageField] = [
        GarageField("task", .id),
        GarageField("at", .time),
        GarageField("odometer_km", .number(0...10_000_000)),
        GarageField("note", .text(maxLength: 500)),
    ]

    /// A named place (`logbook places`): a circle; the subject is its id, `name` what is shown.
    public static let place: [GarageField] = [
        GarageField("name", .text(maxLength: 80)),
        GarageField("lat", .number(-90...90)),
        GarageField("lon", .number(-180...180)),
        GarageField("radius_m", .number(10...50_000)),
    ]

    public static let void: [GarageField] = [GarageField("reason", .text(maxLength: 200))]
}
