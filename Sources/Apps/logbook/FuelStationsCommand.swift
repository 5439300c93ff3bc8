// SPDX-License-Identifier: MIT
import ArgumentParser
import LogbookCore
import LogbookGarage

/// `logbook fuel stations [--vehicle V] [--json|--geojson]`: every station refuelled at,
/// de-duplicated (``FuelStations``), nearest to the car first.
struct FuelStationsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stations",
        abstract: "Stations refuelled at (same name within 150 m, or unnamed within 50 m, is one), nearest to the car first.")
    @OptionGroup var paths: PathOptions
    @Option(help: "Only this vehicle's fill-ups.") var vehicle: String?
    @Flag(help: "Print JSON: {from, stations, unplaced}.") var json = false
    @Flag(help: "Print a GeoJSON FeatureCollection of the stations.") var geojson = false

    func validate() throws {
        if json && geojson { throw ValidationError("--json and --geojson exclude each other") }
    }

    func run() async throws {
        try await withExitCodes {
            let settings = try ReaderSettings.load(paths)
            let garage = try IndexAccess.withIndex(settings) { try GarageAccess.load($0, settings: settings, types: GarageAccess.withoutClassifications) }
            if let vehicle, !garage.vehicles.contains(where: { $0.id == vehicle }) {
                throw CLIError.usage("unknown vehicle \(vehicle)")
            }
            let car = try CarPosition.find(settings, vehicle: vehicle)
            let (stations, unplaced) = FuelStations.group(
                garage.fuelLogs.filter { vehicle == nil || $0.vehicle == vehicle }, from: car.map { ($0.latitude, $0.longitude) })
            if json {
                print(FuelStations.json(stations, unplaced: unplaced, from: car?.origin).serialized)
                return
            }
            if geojson {
                print(FuelStations.geoJSON(stations).serialized)
                return
            }
            guard !stations.isEmpty else {
                print(unplaced == 0 ? "No fill-ups with a position." : "No fill-ups with a position (\(unplaced) without one).")
                return
            }
            let units = settings.units
            var rows = [["STATION", "DISTANCE", "VISITS", "LAST VISIT", units == .metric ? "LITRES" : "GALLONS", units == .metric ? "PER LITRE" : "PER GALLON", "POSITION"]]
            for s in stations {
                let prices = s.pricePerLitre.keys.sorted().map { NumberText.fixed(units.perVolume(s.pricePerLitre[$0] ?? 0), places: 3) + " " + $0 }
                rows.append([
                    s.name ?? "(unnamed)", s.distance.map { Self.distanceText($0, units) } ?? "-", String(s.visits), TripFormat.dateTime(s.lastVisit),
                    units.volumeText(s.litres), prices.joined(separator: ", "),
                    NumberText.fixed(s.latitude, places: 5) + ", " + NumberText.fixed(s.longitude, places: 5),
                ])
            }
            print(GarageText.table(rows))
            print(car.map { "Sorted by distance from \($0.description) (\($0.coordinates))." } ?? "No position of the car known: newest visit first.")
            if unplaced > 0 { print("\(unplaced) fill-up\(unplaced == 1 ? " has" : "s have") no position.") }
        }
    }

    static func distanceText(_ metres: Double, _ units: UnitSystem) -> String {
        guard units == .metric else { return units.distanceText(metres) }
        return metres < 1000 ? NumberText.fixed(metres, places: 0) + " m" : NumberText.fixed(metres / 1000, places: 1) + " km"
    }
}
