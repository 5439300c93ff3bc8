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
    @Option(help: "Odometer reading in km (45.3 or 45,3).") var odometer: NumberArgument?
    @Option(help: "Litres put in (45.3 or 45,3).") var litres: NumberArgument?
    @Option(help: "The amount paid.") var price: NumberArgument?
    @Option(help: "ISO 4217 currency of the price, e.g. EUR.") var currency: String?
    @Option(help: "When: 2029-11-10, 2029-11-10T08:00 (local) or ISO 8601 with Z or an offset; default now.") var at: String?
    @Option(help: "Station name.") var station: String?
    @Option(name: .customLong("station-address"), help: "Station address.") var stationAddress: String?
    @Option(help: "Station latitude.") var lat: NumberArgument?
    @Option(help: "Station longitude.") var lon: NumberArgument?
    @Option(help: "A note.") var note: String?

    func fields(full: Bool?, missed: Bool?) throws -> [(String, JSONValue)] {
        [("vehicle", .option(vehicle)), ("at", .option(try DateArgument.utcText(at, option: "--at"))), ("odometer_km", .option(odometer)), ("litres", .option(litres)),
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
            var request = try fields.fields(full: !partial, missed: missed)
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
    @Argument(help: "The fuel log's id (fuel list shows it).") var id: String
    @OptionGroup var fields: FuelFieldOptions
    @Option(help: "true for a full tank, false for a partial fill.") var full: Bool?
    @Option(help: "true when a fill before this one was not logged.") var missed: Bool?
    @Flag(help: "Print the reply as JSON.") var json = false

    func run() async throws {
        try await withExitCodes {
            _ = try ReaderSettings.load(paths)  // the configured zone, for --at
            try await GarageAccess.writeAndReport("fuel.amend", [("subject", .string(id))] + fields.fields(full: full, missed: missed), paths: paths, json: json) { _ in "Fuel log \(id) amended" }
        }
    }
}

struct FuelVoidCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "void", abstract: "Withdraw a fill-up (it stays in --history).")
    @OptionGroup var paths: PathOptions
    @Argument(help: "The fuel log's id.") var id: String
    @Option(help: "Why.") var reason: String?
    @Flag(help: "Print the reply as JSON.") var json = false

    func run() async throws {
        try await withExitCodes {
            try await GarageAccess.writeAndReport("fuel.void", [("subject", .string(id)), ("reason", .option(reason))], paths: paths, json: json) { _ in "Fuel log \(id) voided" }
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
            var rows = [["ID", "TIME (" + LocalZone.label + ")", "ODOMETER", "LITRES", "PRICE", "FILL", "STATION"]]
            for f in logs {
                var fill = f.full ? "full" : "partial"
                if f.missed { fill += ",missed" }
                if f.voided { fill += ",void" }
                if f.history.count > 1 { fill += ",changed" }
                rows.append([
                    f.id, TripFormat.dateTime(f.at), NumberText.fixed(f.odometerKm, places: 0) + " km", NumberText.fixed(f.litres, places: 2),
                    NumberText.fixed(f.price, places: 2) + " " + f.currency, fill, f.station ?? "-",
                ])
            }
            print(GarageText.table(rows))
            if history {
                for f in logs where f.history.count > 1 || f.voided {
                    print("\(f.id):")
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
    @Option(help: "The reading in km.") var odometer: NumberArgument
    @Option(help: "When: 2029-11-10, 2029-11-10T08:00 (local) or ISO 8601 with Z or an offset; default now.") var at: String?
    @Option(help: "A note.") var note: String?
    @Flag(help: "Print the reply as JSON.") var json = false

    func run() async throws {
        try await withExitCodes {
            let settings = try ReaderSettings.load(paths)
            let w = try await GarageAccess.write(
                "odometer.add", [("vehicle", .string(vehicle)), ("at", .option(try DateArgument.utcText(at, option: "--at"))), ("odometer_km", .number(odometer.value)), ("note", .option(note))],
                settings: settings, paths: paths)
            GarageAccess.report(w, json: json, what: "Odometer reading \(w.entry.subject) added")
        }
    }
}

struct OdometerAmendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "amend", abstract: "Correct a reading (a new journal entry; the old values stay in --history).")
    @OptionGroup var paths: PathOptions
    @Argument(help: "The reading's id (see odometer list).") var id: String
    @Option(help: "The reading in km.") var odometer: NumberArgument?
    @Option(help: "When: 2029-11-10, 2029-11-10T08:00 (local) or ISO 8601 with Z or an offset.") var at: String?
    @Option(help: "A note.") var note: String?
    @Flag(help: "Print the reply as JSON.") var json = false

    func run() async throws {
        try await withExitCodes {
            let settings = try ReaderSettings.load(paths)
            let w = try await GarageAccess.write(
                "odometer.amend", [("subject", .string(id)), ("at", .option(try DateArgument.utcText(at, option: "--at"))), ("odometer_km", .option(odometer)), ("note", .option(note))],
                settings: settings, paths: paths)
            GarageAccess.report(w, json: json, what: "Odometer reading \(id) amended")
        }
    }
}

struct OdometerVoidCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "void", abstract: "Withdraw a mistyped reading (it stays in --history).")
    @OptionGroup var paths: PathOptions
    @Argument(help: "The reading's id.") var id: String
    @Option(help: "Why.") var reason: String?
    @Flag(help: "Print the reply as JSON.") var json = false

    func run() async throws {
        try await withExitCodes {
            try await GarageAccess.writeAndReport("odometer.void", [("subject", .string(id)), ("reason", .option(reason))], paths: paths, json: json) { _ in "Odometer reading \(id) voided" }
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
                    var m: [(String, JSONValue)] = [("id", .string(r.id))]
                    if case .object(let fields) = r.record.fields { m += fields }
                    m += [("voided", .bool(r.voided)), ("origin", .string(r.origin)), ("changes", .integer(r.history.count))]
                    return .object(m)
                }).serialized)
                return
            }
            var rows = [["ID", "TIME (" + LocalZone.label + ")", "ODOMETER", "BY", "STATE"]]
            for r in readings {
                rows.append([r.id, TripFormat.dateTime(r.at), "\(GarageText.value(.number(r.odometerKm))) km", r.origin ?? "-", r.voided ? "void" : r.history.count > 1 ? "changed" : "ok"])
            }
            print(readings.isEmpty ? "No odometer readings." : GarageText.table(rows))
            if history { for r in readings { print("\(r.id):"); GarageText.printHistory(r.history) } }
        }
    }
}
