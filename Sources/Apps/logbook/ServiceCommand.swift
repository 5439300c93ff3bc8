// SPDX-License-Identifier: MIT
import ArgumentParser
import Foundation
import LogbookCore
import LogbookGarage
import LogbookGarageStore
import LogbookStore

/// `logbook service add|list|done|remove`: recurring service tasks and when they fall due.
struct ServiceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "service", abstract: "Service reminders: tasks every N km and/or months.",
        subcommands: [ServiceAddCommand.self, ServiceListCommand.self, ServiceDoneCommand.self, ServiceRemoveCommand.self])

    /// Every active task's state, with the odometer now estimated by calibration.
    static func due(_ index: TripIndex, _ garage: Garage, now: GPSTime) throws -> [ServiceDue] {
        try GarageStore.serviceDue(index, garage: garage, now: now)
    }
}

struct ServiceAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a recurring service task.")
    @OptionGroup var paths: PathOptions
    @Argument(help: "The task's id, e.g. golf-oil.") var id: String
    @Option(help: "The vehicle's id.") var vehicle: String
    @Option(help: "What it is, e.g. \"Oil change\".") var name: String
    @Option(name: .customLong("every-km"), help: "Every N km.") var everyKm: NumberArgument?
    @Option(name: .customLong("every-miles"), help: "Every N miles, instead of --every-km.") var everyMiles: NumberArgument?
    @Option(name: .customLong("every-months"), help: "Every N months.") var everyMonths: Int?
    @Option(name: .customLong("last-done"), help: "When it was last done: 2029-11-10, 2029-11-10T08:00 (local) or ISO 8601 with Z or an offset; default now.") var lastDone: String?
    @Option(name: .customLong("last-done-odometer"), help: "The odometer then, in km (miles with [units] system = \"imperial\").")
    var lastDoneOdometer: NumberArgument?
    @Option(name: .customLong("last-done-km"), help: "The odometer then, in km.") var lastDoneKm: NumberArgument?
    @Flag(help: "Print the reply as JSON.") var json = false

    func run() async throws {
        try await withExitCodes {
            let settings = try ReaderSettings.load(paths)
            if everyKm != nil, everyMiles != nil { throw CLIError.usage("give --every-km or --every-miles, not both") }
            if lastDoneKm != nil, lastDoneOdometer != nil { throw CLIError.usage("give --last-done-km or --last-done-odometer, not both") }
            let every = everyKm?.value ?? everyMiles.map { UnitSystem.imperial.kilometres(typed: $0.value) }
            let lastKm = lastDoneKm?.value ?? lastDoneOdometer.map { settings.units.kilometres(typed: $0.value) }
            let w = try await GarageAccess.write(
                "service.add",
                [("task", .string(id)), ("vehicle", .string(vehicle)), ("name", .string(name)), ("every_km", .option(every)),
                 ("every_months", .option(everyMonths)), ("last_done_at", .option(try DateArgument.utcText(lastDone, option: "--last-done"))),
                 ("last_done_km", .option(lastKm))],
                settings: settings, paths: paths)
            GarageAccess.report(w, json: json, what: "Service task \(id) added")
        }
    }
}

struct ServiceDoneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "done", abstract: "Record that a task was done.")
    @OptionGroup var paths: PathOptions
    @Argument(help: "The task's number (2 or #2, as service list shows it) or id.") var id: String
    @Option(help: "When: 2029-11-10, 2029-11-10T08:00 (local) or ISO 8601 with Z or an offset; default now.") var at: String?
    @Option(help: "The odometer then, in km (miles with [units] system = \"imperial\").") var odometer: NumberArgument?
    @Option(help: "A note.") var note: String?
    @Flag(help: "Print the reply as JSON.") var json = false

    func run() async throws {
        try await withExitCodes {
            let settings = try ReaderSettings.load(paths)
            let task = try GarageAccess.resolve(id, .service, settings: settings)
            let w = try await GarageAccess.write(
                "service.done",
                [("task", .string(task)), ("at", .option(try DateArgument.utcText(at, option: "--at"))),
                 ("odometer_km", .option(odometer.map { settings.units.kilometres(typed: $0.value) })), ("note", .option(note))],
                settings: settings, paths: paths)
            GarageAccess.report(w, json: json, what: "Service task \(task) done")
        }
    }
}

struct ServiceRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a task (it stays in the history).")
    @OptionGroup var paths: PathOptions
    @Argument(help: "The task's number (2 or #2) or id.") var id: String
    @Flag(help: "Print the reply as JSON.") var json = false

    func run() async throws {
        try await withExitCodes {
            let settings = try ReaderSettings.load(paths)
            let task = try GarageAccess.resolve(id, .service, settings: settings)
            let w = try await GarageAccess.write("service.remove", [("task", .string(task))], settings: settings, paths: paths)
            GarageAccess.report(w, json: json, what: "Service task \(task) removed")
        }
    }
}

struct ServiceListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Tasks and when they are due.")
    @OptionGroup var paths: PathOptions
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        try await withExitCodes {
            let settings = try ReaderSettings.load(paths)
            let now = GarageAccess.wallClock()
            let due = try IndexAccess.withIndex(settings) { index in try ServiceCommand.due(index, try GarageAccess.load(index, settings: settings, types: GarageAccess.withoutClassifications), now: now) }
            if json {
                print(JSONValue.array(due.map(\.json)).serialized)
                return
            }
            let units = settings.units
            var rows = [["#", "TASK", "VEHICLE", "NAME", "DUE AT", "DUE AT ODOMETER", "LEFT", "STATE"]]
            for d in due {
                var left: [String] = []
                if let km = d.kmLeft { left.append(units.distanceText(km * 1000)) }
                if let days = d.daysLeft { left.append("\(Int(days.rounded())) days") }
                rows.append([
                    "#\(d.task.number)", d.task.id, d.task.vehicle, d.task.name, d.dueAt.map { LocalZone.rules.date($0) } ?? "-",
                    d.dueKm.map(units.odometerText) ?? "-", left.isEmpty ? "-" : left.joined(separator: ", "), d.state.rawValue,
                ])
            }
            print(GarageText.table(rows))
        }
    }
}
