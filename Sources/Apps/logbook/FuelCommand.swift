// SPDX-License-Identifier: MIT
import ArgumentParser
import LogbookCore
import LogbookGarage
import LogbookRecords

/// `logbook fuel add|list|amend|void`.
struct FuelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fuel", abstract: "Fuel logs: add, list, amend and void fill-ups; complete or dismiss the OBD adapter's pending ones.",
        subcommands: [
            FuelAddCommand.self, FuelListCommand.self, FuelStationsCommand.self, FuelAmendCommand.self, FuelVoidCommand.self, FuelImportCommand.self,
            FuelPendingCommand.self, FuelCompleteCommand.self, FuelDismissCommand.self,
        ])
}

/// The fill-up fields as options (add and amend).
struct FuelFieldOptions: ParsableArguments {
    @Option(help: "The vehicle's id.") var vehicle: String?
    @Option(help: "Odometer reading in km, in miles with [units] system = \"imperial\" (45.3 or 45,3).") var odometer: NumberArgument?
    @Option(help: "Litres put in (45.3 or 45,3).") var litres: NumberArgument?
    @Option(help: "US gallons put in, instead of --litres (recorded in litres).") var gallons: NumberArgument?
    @Option(help: "The amount paid.") var price: NumberArgument?
    @Option(help: "ISO 4217 currency of the price, e.g. EUR (default: [units] currency, else the vehicle's last fill-up's).")
    var currency: String?
    @Option(help: "When: 2029-11-10, 2029-11-10T08:00 (local) or ISO 8601 with Z or an offset; default now.") var at: String?
    @Option(help: "Station name.") var station: String?
    @Option(name: .customLong("station-address"), help: "Station address.") var stationAddress: String?
    @Option(help: "Station latitude.") var lat: NumberArgument?
    @Option(help: "Station longitude.") var lon: NumberArgument?
    @Option(help: "A note.") var note: String?

    /// The request fields, the odometer and volume in the journal's km and litres.
    func fields(full: Bool?, missed: Bool?, units: UnitSystem) throws -> [(String, JSONValue)] {
        if litres != nil, gallons != nil { throw CLIError.usage("give --litres or --gallons, not both") }
        let volume = litres?.value ?? gallons.map { UnitSystem.imperial.litres(typed: $0.value) }
        return [("vehicle", .option(vehicle)), ("at", .option(try DateArgument.utcText(at, option: "--at"))),
         ("odometer_km", .option(odometer.map { units.kilometres(typed: $0.value) })), ("litres", .option(volume)),
         ("price", .option(price)), ("currency", .option(currency)), ("full", full.map(JSONValue.bool) ?? .null),
         ("missed", missed.map(JSONValue.bool) ?? .null), ("station", .option(station)), ("station_address", .option(stationAddress)),
         ("lat", .option(lat)), ("lon", .option(lon)), ("note", .option(note))]
    }
}

struct FuelAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Log a fill-up.")
    @OptionGroup var paths: PathOptions
    @OptionGroup var fields: FuelFieldOptions
    @Flag(help: "The tank was not filled to the brim.") var partial = false
    @Flag(help: "A fill before this one was not logged.") var missed = false
    @Flag(help: "Print the reply as JSON.") var json = false
    @Flag(help: "Log it even when a fill-up with the same vehicle, odometer and litres exists.") var force = false

    @Flag(name: .customLong("no-position"), help: "Record no position (else the car's: its live fix, or where its last trip ended).")
    var noPosition = false

    func run() async throws {
        try await withExitCodes {
            let settings = try ReaderSettings.load(paths)
            var request = try fields.fields(full: !partial, missed: missed, units: settings.units)
            if fields.currency == nil {
                guard let currency = try GarageAccess.defaultCurrency(vehicle: fields.vehicle, settings: settings) else {
                    throw CLIError.usage("--currency: no default: give --currency EUR, or set [units] currency in the configuration")
                }
                request = request.map { $0.0 == "currency" ? ("currency", .string(currency)) : $0 }
            }
            var used: CarPosition?
            if fields.lat == nil, fields.lon == nil, !noPosition {
                let at = try fields.at.map { try DateArgument.parse($0, option: "--at") }
                used = try CarPosition.find(settings, vehicle: fields.vehicle, at: at)
                if let used {
                    request = request.map { $0.0 == "lat" ? ("lat", .number(used.latitude)) : $0.0 == "lon" ? ("lon", .number(used.longitude)) : $0 }
                }
            }
            let w = try await GarageAccess.write("fuel.add", request, settings: settings, paths: paths, force: force)
            let asked = fields.lat == nil && fields.lon == nil && !noPosition
            let position = used.map { "Position \($0.coordinates) from \($0.description)." }
                ?? (asked ? "No position: logbookd has no recent fix and no trip had ended by then." : nil)
            if json, let position { IndexAccess.note(position) }
            GarageAccess.report(w, json: json, what: "Fuel log \(w.entry.subject) added")
            if !json, let position { print(position) }
        }
    }
}

struct FuelAmendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "amend", abstract: "Correct a fill-up (a new journal entry; the old values stay in --history).")
    @OptionGroup var paths: PathOptions
    @Argument(help: "The fill-up's number (12 or #12, as fuel list shows it) or id.") var id: String
    @OptionGroup var fields: FuelFieldOptions
    @Option(help: "true for a full tank, false for a partial fill.") var full: Bool?
    @Option(help: "true when a fill before this one was not logged.") var missed: Bool?
    @Flag(help: "Print the reply as JSON.") var json = false

    func run() async throws {
        try await withExitCodes {
            let settings = try ReaderSettings.load(paths)
            let subject = try GarageAccess.resolve(id, .fuel, settings: settings)
            let w = try await GarageAccess.write(
                "fuel.amend", [("subject", .string(subject))] + fields.fields(full: full, missed: missed, units: settings.units), settings: settings, paths: paths)
            GarageAccess.report(w, json: json, what: "Fuel log \(subject) amended")
        }
    }
}

struct FuelVoidCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "void", abstract: "Withdraw a fill-up (it stays in --history).")
    @OptionGroup var paths: PathOptions
    @Argument(help: "The fill-up's number (12 or #12) or id.") var id: String
    @Option(help: "Why.") var reason: String?
    @Flag(help: "Print the reply as JSON.") var json = false

    func run() async throws {
        try await withExitCodes {
            let settings = try ReaderSettings.load(paths)
            let subject = try GarageAccess.resolve(id, .fuel, settings: settings)
            let w = try await GarageAccess.write("fuel.void", [("subject", .string(subject)), ("reason", .option(reason))], settings: settings, paths: paths)
            GarageAccess.report(w, json: json, what: "Fuel log \(subject) voided")
        }
    }
}

struct FuelListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List fill-ups, newest first.")
    @OptionGroup var paths: PathOptions
    @Option(help: "Only this vehicle's.") var vehicle: String?
    @Flag(help: "Include voided fill-ups and every entry of each.") var history = false
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        try await withExitCodes {
            let settings = try ReaderSettings.load(paths)
            let garage = try IndexAccess.withIndex(settings) { try GarageAccess.load($0, settings: settings, types: GarageAccess.withoutClassifications) }
            try VehicleFilter.check(vehicle, garage)
            let logs = garage.fuelLogs.filter { (history || !$0.voided) && (vehicle == nil || $0.vehicle == vehicle) }
                .sorted { ($0.at, $0.odometerKm) > ($1.at, $1.odometerKm) }
            if json {
                print(JSONValue.array(logs.map(GarageStats.fillJSON)).serialized)
                return
            }
            let units = settings.units
            var rows = [["#", "TIME (" + LocalZone.label + ")", "ODOMETER", units == .metric ? "LITRES" : "GALLONS", "PRICE", "FILL", "STATION"]]
            for f in logs {
                var fill = f.full ? "full" : "partial"
                if f.missed { fill += ",missed" }
                if f.voided { fill += ",void" }
                if f.history.count > 1 { fill += ",changed" }
                rows.append([
                    "#\(f.number)", TripFormat.dateTime(f.at), units.odometerText(f.odometerKm), units.volumeText(f.litres),
                    NumberText.fixed(f.price, places: 2) + " " + f.currency, fill, f.station ?? "-",
                ])
            }
            print(GarageText.table(rows))
            if history {
                for f in logs where f.history.count > 1 || f.voided {
                    print("#\(f.number) \(f.id):")
                    GarageText.printHistory(f.history)
                }
            }
        }
    }
}

/// `logbook odometer add --vehicle ID --odometer KM [--at TIME]`.
struct OdometerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "odometer", abstract: "Odometer readings (for calibration and the report): add, amend, void, list.",
        subcommands: [OdometerAddCommand.self, OdometerAmendCommand.self, OdometerVoidCommand.self, OdometerListCommand.self])
}

struct OdometerAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Record an odometer reading.")
    @OptionGroup var paths: PathOptions
    @Option(help: "The vehicle's id.") var vehicle: String
    @Option(help: "The reading in km, in miles with [units] system = \"imperial\".") var odometer: NumberArgument
    @Option(help: "When: 2029-11-10, 2029-11-10T08:00 (local) or ISO 8601 with Z or an offset; default now.") var at: String?
    @Option(help: "A note.") var note: String?
    @Flag(help: "Print the reply as JSON.") var json = false

    func run() async throws {
        try await withExitCodes {
            let settings = try ReaderSettings.load(paths)
            let w = try await GarageAccess.write(
                "odometer.add",
                [("vehicle", .string(vehicle)), ("at", .option(try DateArgument.utcText(at, option: "--at"))),
                 ("odometer_km", .number(settings.units.kilometres(typed: odometer.value))), ("note", .option(note))],
                settings: settings, paths: paths)
            GarageAccess.report(w, json: json, what: "Odometer reading \(w.entry.subject) added")
        }
    }
}

struct OdometerAmendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "amend", abstract: "Correct a reading (a new journal entry; the old values stay in --history).")
    @OptionGroup var paths: PathOptions
    @Argument(help: "The reading's number (3 or #3, as odometer list shows it) or id.") var id: String
    @Option(help: "The reading in km, in miles with [units] system = \"imperial\".") var odometer: NumberArgument?
    @Option(help: "When: 2029-11-10, 2029-11-10T08:00 (local) or ISO 8601 with Z or an offset.") var at: String?
    @Option(help: "A note.") var note: String?
    @Flag(help: "Print the reply as JSON.") var json = false

    func run() async throws {
        try await withExitCodes {
            let settings = try ReaderSettings.load(paths)
            let w = try await GarageAccess.write(
                "odometer.amend",
                [("subject", .string(try GarageAccess.resolve(id, .odometer, settings: settings))), ("at", .option(try DateArgument.utcText(at, option: "--at"))),
                 ("odometer_km", .option(odometer.map { settings.units.kilometres(typed: $0.value) })), ("note", .option(note))],
                settings: settings, paths: paths)
            GarageAccess.report(w, json: json, what: "Odometer reading \(w.entry.subject) amended")
        }
    }
}

struct OdometerVoidCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "void", abstract: "Withdraw a mistyped reading (it stays in --history).")
    @OptionGroup var paths: PathOptions
    @Argument(help: "The reading's number (3 or #3) or id.") var id: String
    @Option(help: "Why.") var reason: String?
    @Flag(help: "Print the reply as JSON.") var json = false

    func run() async throws {
        try await withExitCodes {
            let settings = try ReaderSettings.load(paths)
            let subject = try GarageAccess.resolve(id, .odometer, settings: settings)
            let w = try await GarageAccess.write("odometer.void", [("subject", .string(subject)), ("reason", .option(reason))], settings: settings, paths: paths)
            GarageAccess.report(w, json: json, what: "Odometer reading \(subject) voided")
        }
    }
}

struct OdometerListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List odometer readings, newest first.")
    @OptionGroup var paths: PathOptions
    @Option(help: "Only this vehicle's readings.") var vehicle: String?
    @Flag(help: "List every journal entry about each reading.") var history = false
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        try await withExitCodes {
            let settings = try ReaderSettings.load(paths)
            let garage = try IndexAccess.withIndex(settings) { try GarageAccess.load($0, settings: settings, types: GarageAccess.withoutClassifications) }
            try VehicleFilter.check(vehicle, garage)
            let readings = garage.readings.filter { vehicle == nil || $0.vehicle == vehicle }.sorted { $0.at > $1.at }
            if json {
                print(JSONValue.array(readings.map { r in
                    var m: [(String, JSONValue)] = [("id", .string(r.id)), ("number", .integer(r.number))]
                    if case .object(let fields) = r.record.fields { m += fields }
                    m += [("voided", .bool(r.voided)), ("origin", .string(r.origin)), ("changes", .integer(r.history.count))]
                    return .object(m)
                }).serialized)
                return
            }
            var rows = [["#", "TIME (" + LocalZone.label + ")", "ODOMETER", "BY", "STATE"]]
            for r in readings {
                rows.append(["#\(r.number)", TripFormat.dateTime(r.at), settings.units.odometerText(r.odometerKm), r.origin ?? "-", r.voided ? "void" : r.history.count > 1 ? "changed" : "ok"])
            }
            print(readings.isEmpty ? "No odometer readings." : GarageText.table(rows))
            if history { for r in readings { print("#\(r.number) \(r.id):"); GarageText.printHistory(r.history) } }
        }
    }
}
