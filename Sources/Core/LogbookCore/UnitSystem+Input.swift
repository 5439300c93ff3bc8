// SPDX-License-Identifier: MIT

/// Volumes, odometers and economy in the configured system, and what people type in it turned
/// into the journal's metric units: the one conversion the CLI, the web forms and the fuel
/// import share (the journal is always km and litres).
extension UnitSystem {
    /// Metres in a statute mile.
    public static let metresPerMile = 1609.344
    /// Litres in a US liquid gallon.
    public static let litresPerGallon = 3.785_411_784

    /// `L` or `gal` (US gallons).
    public var volumeUnit: String { self == .metric ? "L" : "gal" }
    /// `km` or `mi` as a word for form labels and help: `km` or `miles`.
    public var distanceWord: String { self == .metric ? "km" : "miles" }
    /// `litres` or `US gallons`, for form labels and help.
    public var volumeWord: String { self == .metric ? "litres" : "US gallons" }

    /// Litres in this system's volume unit.
    public func volume(_ litres: Double) -> Double { self == .metric ? litres : litres / Self.litresPerGallon }

    /// A distance typed in this system's unit (km or miles), in km for the journal (miles
    /// converted to the metre: `10000 mi` is `16093.44 km`).
    public func kilometres(typed value: Double) -> Double { self == .metric ? value : Self.rounded(value * Self.metresPerMile / 1000) }

    /// A volume typed in this system's unit (litres or US gallons), in litres for the journal
    /// (gallons converted to the millilitre: `10 gal` is `37.854 L`, not a float's tail).
    public func litres(typed value: Double) -> Double { self == .metric ? value : Self.rounded(value * Self.litresPerGallon) }

    /// The same fields with every distance (`odometer_km`, `every_km`, `last_done_km`,
    /// `initial_odometer_km`) and volume (`litres`, `tank_l`) typed in this system turned metric.
    public func journalFields(_ fields: [(String, JSONValue)]) -> [(String, JSONValue)] {
        guard self == .imperial else { return fields }
        return fields.map { key, value in
            guard case .number(let n) = value else { return (key, value) }
            if Self.distanceKeys.contains(key) { return (key, .number(kilometres(typed: n))) }
            if Self.volumeKeys.contains(key) { return (key, .number(litres(typed: n))) }
            return (key, value)
        }
    }

    /// Journal fields that hold a distance in km.
    public static let distanceKeys: Set<String> = ["odometer_km", "every_km", "last_done_km", "initial_odometer_km"]
    /// Journal fields that hold a volume in litres.
    public static let volumeKeys: Set<String> = ["litres", "tank_l"]

    /// `10.00 gal` or `37.85 L`.
    public func volumeText(_ litres: Double, places: Int = 2) -> String {
        NumberText.fixed(volume(litres), places: places) + " " + volumeUnit
    }

    /// An odometer in km as `12345 km` or `7671 mi` (whole units).
    public func odometerText(_ km: Double) -> String {
        NumberText.fixed(distance(km * 1000), places: 0) + " " + distanceUnit
    }

    /// US miles per gallon for a consumption in L/100 km.
    public static func mpgUS(litresPer100km: Double) -> Double {
        100 * litresPerGallon / (metresPerMile / 1000) / litresPer100km
    }

    /// An amount per km as one per this system's distance unit (a cost per km → per mile).
    public func perDistance(_ perKm: Double) -> Double { self == .metric ? perKm : perKm * Self.metresPerMile / 1000 }

    /// An amount per litre as one per this system's volume unit (a price per litre → per gallon).
    public func perVolume(_ perLitre: Double) -> Double { self == .metric ? perLitre : perLitre * Self.litresPerGallon }

    /// Three decimals: metres of a km, millilitres of a litre.
    static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}
