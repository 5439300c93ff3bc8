// SPDX-License-Identifier: MIT
import ArgumentParser
import LogbookCore
import LogbookGarage
import LogbookGarageStore
import LogbookRecords
import LogbookStore

/// `logbook fuel pending`: the fill-ups the OBD source noticed (the fuel level rose while
/// the car stood), waiting for their price.
struct FuelPendingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pending", abstract: "List fill-ups the OBD adapter noticed that wait for their price.")
    @OptionGroup var paths: PathOptions
    @Option(help: "Only this vehicle's.") var vehicle: String?
    @Flag(help: "Include completed and dismissed ones.") var all = false
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        try await withExitCodes {
            let settings = try ReaderSettings.load(paths)
            let garage = try IndexAccess.withIndex(settings) { try GarageAccess.load($0, settings: settings, types: GarageAccess.withoutClassifications) }
            try VehicleFilter.check(vehicle, garage)
            let fills = garage.pendingFills.filter { (all || $0.state == .open) && (vehicle == nil || $0.vehicle == vehicle) }
                .sorted { $0.at > $1.at }
            if json {
                print(JSONValue.array(fills.map(\.json)).serialized)
                return
            }
            guard !fills.isEmpty else {
                print("No pending fill-ups.")
                return
            }
            let units = settings.units
            var rows = [["ID", "TIME (" + LocalZone.label + ")", "VEHICLE", units == .metric ? "LITRES (EST.)" : "GALLONS (EST.)", "LEVEL", "STATE"]]
            for p in fills {
                let level = p.record.levelBefore.flatMap { b in p.record.levelAfter.map { "\(NumberText.fixed(b, places: 0)) → \(NumberText.fixed($0, places: 0)) %" } }
                let state = p.state == .completed ? "completed (\(p.completedBy ?? "?"))" : p.state.rawValue
                rows.append([p.id, TripFormat.dateTime(p.at), p.vehicle ?? "-", p.record.litresEstimated.map { units.volumeText($0, places: 1) } ?? "-",
                             level ?? "-", state])
            }
            print(GarageText.table(rows))
        }
    }
}

/// `logbook fuel complete ID --price P`: a pending fill-up becomes a fuel log (`fuel.add` with
/// `pending` naming it), its time, place and estimated litres taken over unless given.
struct FuelCompleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "complete", abstract: "Turn a pending fill-up into a fuel log: give its price (and litres, if you know them).")
    @OptionGroup var paths: PathOptions
    @Argument(help: "The pending fill-up's id (fuel pending shows it).") var id: String
    @Option(help: "The amount paid.") var price: NumberArgument
    @Option(help: "Litres put in (default: the estimate from the fuel level and tank_l).") var litres: NumberArgument?
    @Option(help: "US gallons put in, instead of --litres.") var gallons: NumberArgument?
    @Option(help: "ISO 4217 currency (default: [units] currency, else that of the vehicle's last fill-up).") var currency: String?
    @Option(help: "Odometer in km, miles with [units] system = \"imperial\" (default: the estimate from readings and trips at that time).")
    var odometer: NumberArgument?
    @Option(help: "The vehicle, when the adapter knew none.") var vehicle: String?
    @Option(help: "Station name.") var station: String?
    @Option(help: "A note.") var note: String?
    @Flag(help: "The tank was not filled to the brim.") var partial = false
    @Flag(help: "Print the reply as JSON.") var json = false

    func run() async throws {
        try await withExitCodes {
            let settings = try ReaderSettings.load(paths)
            if litres != nil, gallons != nil { throw CLIError.usage("give --litres or --gallons, not both") }
            let given = PendingCompletion(
                price: price.value, litres: litres?.value ?? gallons.map { UnitSystem.imperial.litres(typed: $0.value) },
                currency: currency ?? settings.reader.currency, odometerKm: odometer.map { settings.units.kilometres(typed: $0.value) }, vehicle: vehicle,
                full: !partial, station: station, note: note)
            let fields = try IndexAccess.withIndex(settings) { index -> [(String, JSONValue)] in
                let garage = try GarageAccess.load(index, settings: settings, types: GarageAccess.withoutClassifications)
                do { return try GarageStore.completion(index, garage: garage, pending: id, given) } catch let problem as EntryProblem {
                    throw CLIError.usage(problem.message)
                }
            }
            let w = try await GarageAccess.write("fuel.add", fields, settings: settings, paths: paths)
            GarageAccess.report(w, json: json, what: "Pending fill-up \(id) completed as fuel log \(w.entry.subject)")
        }
    }
}

/// `logbook fuel dismiss ID`: not a fill-up (a sensor's jump), or logged otherwise.
struct FuelDismissCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "dismiss", abstract: "Dismiss a pending fill-up (it stays in the journal).")
    @OptionGroup var paths: PathOptions
    @Argument(help: "The pending fill-up's id.") var id: String
    @Option(help: "Why.") var reason: String?
    @Flag(help: "Print the reply as JSON.") var json = false

    func run() async throws {
        try await withExitCodes {
            try await GarageAccess.writeAndReport("fuel.dismiss", [("subject", .string(id)), ("reason", .option(reason))], paths: paths, json: json) { _ in "Pending fill-up \(id) dismissed" }
        }
    }
}
