// SPDX-License-Identifier: MIT
import ArgumentParser
import LogbookCore
import LogbookRecords

// Classifying and correcting trips: each is a new journal entry (the points are never
// rewritten), checked against the index first, and shown by `trips show ID --history`.

/// A trip number argument, checked.
private func tripNumber(_ text: String) throws -> Double {
    guard let n = UInt64(text), n > 0 else { throw CLIError.usage("not a trip number: \"\(text)\"") }
    return Double(n)
}

/// `logbook trips classify ID… business|private|commute [--purpose T] [--partner T] [--destination T]`.
struct TripsClassifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "classify", abstract: "Classify trips for the mileage report (a reclassification is a new entry).")
    @OptionGroup var paths: PathOptions
    @Argument(help: "Trip numbers, then the class: business, private or commute.") var words: [String]
    @Option(help: "Business purpose.") var purpose: String?
    @Option(help: "Business partner visited.") var partner: String?
    @Option(help: "Destination.") var destination: String?
    @Flag(help: "Print the replies as JSON.") var json = false

    func validate() throws {
        guard words.count >= 2, let last = words.last, TripClassRecord.classes.contains(last.lowercased()) else {
            throw ValidationError("give one or more trip numbers, then business, private or commute")
        }
        for id in words.dropLast() where UInt64(id) == nil || id == "0" {
            throw ValidationError("\(id) is not a trip number")
        }
    }

    func run() async throws {
        try await withExitCodes {
            let settings = try ReaderSettings.load(paths)
            let tripClass = words.last?.lowercased() ?? ""
            for id in words.dropLast() {
                let w = try await GarageAccess.write(
                    "trip.classify",
                    [("trip", .number(try tripNumber(id))), ("class", .string(tripClass)), ("purpose", .option(purpose)),
                     ("partner", .option(partner)), ("destination", .option(destination))],
                    settings: settings, paths: paths)
                GarageAccess.report(w, json: json, what: "Trip \(id) classified \(tripClass)")
            }
        }
    }
}

/// `logbook trips void ID --reason TEXT`: the trip no longer counts (listed as void).
struct TripsVoidCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "void", abstract: "Void a trip (a test drive, a recording by mistake): listed, never counted; restore undoes it.")
    @OptionGroup var paths: PathOptions
    @Argument(help: "The trip's number.") var id: String
    @Option(help: "Why (shown in the history and the report).") var reason: String
    @Flag(help: "Print the reply as JSON.") var json = false

    func run() async throws {
        try await withExitCodes {
            let settings = try ReaderSettings.load(paths)
            let w = try await GarageAccess.write(
                "trip.void", [("trip", .number(try tripNumber(id))), ("reason", .string(reason))], settings: settings, paths: paths)
            GarageAccess.report(w, json: json, what: "Trip \(id) voided")
        }
    }
}

/// `logbook trips restore ID [--reason TEXT]`: undoes a void.
struct TripsRestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "restore", abstract: "Restore a voided trip.")
    @OptionGroup var paths: PathOptions
    @Argument(help: "The trip's number.") var id: String
    @Option(help: "Why (shown in the history).") var reason: String?
    @Flag(help: "Print the reply as JSON.") var json = false

    func run() async throws {
        try await withExitCodes {
            let settings = try ReaderSettings.load(paths)
            let w = try await GarageAccess.write(
                "trip.restore", [("trip", .number(try tripNumber(id))), ("reason", .option(reason))], settings: settings, paths: paths)
            GarageAccess.report(w, json: json, what: "Trip \(id) restored")
        }
    }
}

/// `logbook trips assign ID [--vehicle V] [--driver NAME]`.
struct TripsAssignCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assign", abstract: "Give a trip to another vehicle, or name its driver.")
    @OptionGroup var paths: PathOptions
    @Argument(help: "The trip's number.") var id: String
    @Option(help: "The vehicle that made the trip (its id).") var vehicle: String?
    @Option(help: "Who drove.") var driver: String?
    @Flag(help: "Print the reply as JSON.") var json = false

    func validate() throws {
        guard vehicle != nil || driver != nil else { throw ValidationError("give --vehicle and/or --driver") }
    }

    func run() async throws {
        try await withExitCodes {
            let settings = try ReaderSettings.load(paths)
            let w = try await GarageAccess.write(
                "trip.assign", [("trip", .number(try tripNumber(id))), ("vehicle", .option(vehicle)), ("driver", .option(driver))],
                settings: settings, paths: paths)
            let what = [vehicle.map { "to \($0)" }, driver.map { "driven by \($0)" }].compactMap { $0 }.joined(separator: ", ")
            GarageAccess.report(w, json: json, what: "Trip \(id) assigned \(what)")
        }
    }
}

/// `logbook trips merge A B`: two consecutive trips of one vehicle that were one.
struct TripsMergeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge", abstract: "Merge trip B into trip A (consecutive trips of one vehicle): A keeps its number.")
    @OptionGroup var paths: PathOptions
    @Argument(help: "The earlier trip.") var first: String
    @Argument(help: "The next trip of the same vehicle.") var second: String
    @Flag(help: "Print the reply as JSON.") var json = false

    func run() async throws {
        try await withExitCodes {
            let settings = try ReaderSettings.load(paths)
            let w = try await GarageAccess.write(
                "trip.merge", [("trip", .number(try tripNumber(first))), ("with", .number(try tripNumber(second)))],
                settings: settings, paths: paths)
            GarageAccess.report(w, json: json, what: "Trip \(second) merged into trip \(first)")
        }
    }
}

/// `logbook trips split ID --at TIME`: one trip that was two.
struct TripsSplitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "split", abstract: "Split a trip at a time: the first part keeps the number, the second gets a new one.")
    @OptionGroup var paths: PathOptions
    @Argument(help: "The trip's number.") var id: String
    @Option(help: "Where the second part begins (ISO 8601, or YYYY-MM-DDTHH:MM[:SS] local).") var at: String
    @Flag(help: "Print the reply as JSON.") var json = false

    func run() async throws {
        try await withExitCodes {
            let settings = try ReaderSettings.load(paths)
            let time = try DateArgument.parse(at, option: "--at", endOfDay: false)
            let w = try await GarageAccess.write(
                "trip.split", [("trip", .number(try tripNumber(id))), ("at", .string(ISO8601.format(time)))], settings: settings, paths: paths)
            let newTrip = (try? TripSplitRecord(json: w.entry.fields))?.newTrip.map { String($0.rawValue) } ?? "?"
            GarageAccess.report(w, json: json, what: "Trip \(id) split at \(ISO8601.format(time)): the second part is trip \(newTrip)")
        }
    }
}
