// SPDX-License-Identifier: MIT
import ArgumentParser
import LogbookCore
import LogbookGarage
import LogbookRecords

/// `logbook vehicles add|list|show|edit|retire`.
struct VehiclesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vehicles", abstract: "The garage: add, list, show, edit and retire vehicles.",
        subcommands: [VehiclesAddCommand.self, VehiclesListCommand.self, VehiclesShowCommand.self, VehiclesEditCommand.self, VehiclesRetireCommand.self])
}

/// The vehicle fields as options (add and edit).
struct VehicleFieldOptions: ParsableArguments {
    @Option(help: "A name to show.") var name: String?
    @Option(help: "The make, e.g. Volkswagen.") var make: String?
    @Option(help: "The model, e.g. Golf.") var model: String?
    @Option(help: "Model year.") var year: Int?
    @Option(help: "Registration plate (unique among active vehicles).") var registration: String?
    @Option(name: .customLong("fuel-type"), help: "petrol, diesel, e85, lpg, cng, hydrogen or other.") var fuelType: String?
    @Option(name: .customLong("tank"), help: "Tank size in litres.") var tank: NumberArgument?
    @Option(name: .customLong("tank-gallons"), help: "Tank size in US gallons, instead of --tank (recorded in litres).") var tankGallons: NumberArgument?
    @Option(name: .customLong("odometer"), help: "Odometer when the vehicle joined the logbook, in km (miles with [units] system = \"imperial\").")
    var odometer: NumberArgument?
    @Option(help: "Vehicle identification number (17 characters; the OBD adapter reads it).") var vin: String?
    @Option(help: "Who usually drives it (a trip may name another driver).") var driver: String?

    /// The request fields, the tank in litres and the odometer in km.
    func fields(units: UnitSystem) throws -> [(String, JSONValue)] {
        if tank != nil, tankGallons != nil { throw CLIError.usage("give --tank or --tank-gallons, not both") }
        let litres = tank?.value ?? tankGallons.map { UnitSystem.imperial.litres(typed: $0.value) }
        return [("name", .option(name)), ("make", .option(make)), ("model", .option(model)), ("year", .option(year)),
         ("registration", .option(registration)), ("fuel_type", .option(fuelType)), ("tank_l", .option(litres)),
         ("initial_odometer_km", .option(odometer.map { units.kilometres(typed: $0.value) })), ("vin", .option(vin)), ("driver", .option(driver))]
    }
}

struct VehiclesAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a vehicle.")
    @OptionGroup var paths: PathOptions
    @Argument(help: "The vehicle's id (a-z, 0-9, _ and -), e.g. golf.") var id: String
    @OptionGroup var fields: VehicleFieldOptions
    @Flag(help: "Print the reply as JSON.") var json = false

    func run() async throws {
        try await withExitCodes {
            let settings = try ReaderSettings.load(paths)
            let w = try await GarageAccess.write("vehicle.add", [("vehicle", .string(id))] + fields.fields(units: settings.units), settings: settings, paths: paths)
            GarageAccess.report(w, json: json, what: "Vehicle \(id) added")
        }
    }
}

struct VehiclesEditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "edit", abstract: "Change a vehicle's details (a new journal entry).")
    @OptionGroup var paths: PathOptions
    @Argument(help: "The vehicle's id.") var id: String
    @OptionGroup var fields: VehicleFieldOptions
    @Flag(help: "Print the reply as JSON.") var json = false

    func run() async throws {
        try await withExitCodes {
            let settings = try ReaderSettings.load(paths)
            let w = try await GarageAccess.write("vehicle.amend", [("vehicle", .string(id))] + fields.fields(units: settings.units), settings: settings, paths: paths)
            GarageAccess.report(w, json: json, what: "Vehicle \(id) changed")
        }
    }
}

struct VehiclesRetireCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "retire", abstract: "Retire a vehicle (its history stays).")
    @OptionGroup var paths: PathOptions
    @Argument(help: "The vehicle's id.") var id: String
    @Option(help: "Why (kept in the history).") var reason: String?
    @Flag(help: "Print the reply as JSON.") var json = false

    func run() async throws {
        try await withExitCodes {
            try await GarageAccess.writeAndReport("vehicle.retire", [("vehicle", .string(id)), ("reason", .option(reason))], paths: paths, json: json) { _ in "Vehicle \(id) retired" }
        }
    }
}

struct VehiclesListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List vehicles.")
    @OptionGroup var paths: PathOptions
    @Flag(help: "Include retired vehicles.") var all = false
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        try await withExitCodes {
            let settings = try ReaderSettings.load(paths)
            let garage = try IndexAccess.withIndex(settings) { try GarageAccess.load($0, settings: settings, types: GarageAccess.withoutClassifications) }
            let shown = garage.vehicles.filter { all || !$0.retired }
            if json {
                print(JSONValue.array(shown.map(Self.json)).serialized)
                return
            }
            var rows = [["ID", "NAME", "REGISTRATION", "FUEL", "SOURCE", "STATE"]]
            for v in shown {
                rows.append([
                    v.id, v.name, v.registration ?? "-", v.record.fuelType ?? "-",
                    v.configured ? (v.history.isEmpty ? "config" : "config+journal") : "journal", v.retired ? "retired" : "active",
                ])
            }
            print(GarageText.table(rows))
        }
    }

    static func json(_ v: GarageVehicle) -> JSONValue {
        var members: [(String, JSONValue)] = [("id", .string(v.id))]
        let stored = v.record.fields
        for field in VehicleRecord.schema { members.append((field.name, stored[field.name] ?? (field.name == "name" ? .string(v.name) : .null))) }
        members += [
            ("configured", .bool(v.configured)), ("retired", .bool(v.retired)), ("origin", .string(v.history.first?.entry.origin)),
            ("changes", .integer(v.history.count)),
        ]
        return .object(members)
    }
}

struct VehiclesShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show a vehicle, with --history its entries.")
    @OptionGroup var paths: PathOptions
    @Argument(help: "The vehicle's id.") var id: String
    @Flag(help: "List every journal entry about it.") var history = false
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        try await withExitCodes {
            let settings = try ReaderSettings.load(paths)
            let garage = try IndexAccess.withIndex(settings) { try GarageAccess.load($0, settings: settings, types: GarageAccess.withoutClassifications) }
            guard let v = garage.vehicle(id) else { throw CLIError.usage("no vehicle \"\(id)\"") }
            if json {
                print(VehiclesListCommand.json(v).serialized)
                return
            }
            print("\(v.id): \(v.name)\(v.retired ? " (retired)" : "")")
            let stored = v.record.fields
            for field in VehicleRecord.schema where field.name != "name" {
                guard let value = stored[field.name] else { continue }
                // Imperial: the tank in gallons, the odometer in miles (the field names stay).
                let units = settings.units
                if units == .imperial, let n = value.doubleValue, UnitSystem.volumeKeys.contains(field.name) {
                    print("  \(field.name.dropLast(2)): \(units.volumeText(n))")
                } else if units == .imperial, let n = value.doubleValue, UnitSystem.distanceKeys.contains(field.name) {
                    print("  \(field.name.dropLast(3)): \(units.odometerText(n))")
                } else {
                    print("  \(field.name): \(GarageText.value(value))")
                }
            }
            if history { GarageText.printHistory(v.history) }
        }
    }
}
