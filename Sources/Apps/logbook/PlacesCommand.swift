// SPDX-License-Identifier: MIT
import ArgumentParser
import Foundation
import LogbookControl
import LogbookCore
import LogbookPlaces
import LogbookStore

/// `logbook places add|list|edit|remove`: named places ("home", "office"), as `place`
/// entries in the journal (through logbookd, or directly when it is not running).
struct PlacesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "places", abstract: "Named places that name where trips start and end.",
        subcommands: [PlacesAddCommand.self, PlacesListCommand.self, PlacesEditCommand.self, PlacesRemoveCommand.self])
}

/// The place fields as options (add and edit).
struct PlaceFieldOptions: ParsableArguments {
    @Option(name: .customLong("at"), help: "The centre as LAT,LON in degrees, e.g. 47.3329,7.8211.") var at: String?
    @Flag(name: .customLong("here"), help: "The centre is where the car is now (asks logbookd).") var here = false
    @Option(name: .customLong("radius"), help: "Radius in metres (10-50000; default 100 when adding).") var radius: NumberArgument?
    @Option(name: .customLong("name"), help: "The name shown (default: the place's id).") var name: String?

    /// The fields of the entry; `defaultRadius` when adding.
    func fields(_ paths: PathOptions, defaultRadius: Double?) throws -> [(String, JSONValue)] {
        guard !(here && at != nil) else { throw CLIError.usage("give --at or --here, not both") }
        var position: (Double, Double)?
        if let at { position = try Self.parse(at) }
        if here { position = try Self.currentPosition(paths) }
        return [
            ("name", .option(name)), ("lat", .option(position?.0)), ("lon", .option(position?.1)),
            ("radius_m", .option(radius?.value ?? defaultRadius)),
        ]
    }

    static func parse(_ text: String) throws -> (Double, Double) {
        let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let lat = parts[0], let lon = parts[1], (-90...90).contains(lat), (-180...180).contains(lon) else {
            throw CLIError.usage("--at takes LAT,LON in degrees (e.g. 47.3329,7.8211), got \"\(text)\"")
        }
        return (lat, lon)
    }

    /// The car's position from the daemon's live state.
    static func currentPosition(_ paths: PathOptions) throws -> (Double, Double) {
        guard let client = try? ControlClient(socketPath: try paths.daemonPaths().controlSocket) else {
            throw CLIError.unavailable("--here asks logbookd where the car is, and it is not reachable")
        }
        let doc: JSONValue
        do {
            doc = try client.call(.object([("cmd", .string("status"))])).0
        } catch {
            throw error.cliError
        }
        if let zone = doc["in_privacy_zone"]?.stringValue {
            throw CLIError.problem("the car is in privacy zone \(zone): its position is not known to the logbook")
        }
        guard let lat = doc["gps"]?["lat"]?.doubleValue, let lon = doc["gps"]?["lon"]?.doubleValue else {
            throw CLIError.problem("logbookd has no fix yet: give --at LAT,LON")
        }
        return (lat, lon)
    }
}

struct PlacesAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a named place.")
    @OptionGroup var paths: PathOptions
    @Argument(help: "The place's id (a-z, 0-9, _ and -), e.g. home.") var id: String
    @OptionGroup var fields: PlaceFieldOptions
    @Flag(help: "Print the reply as JSON.") var json = false

    func run() async throws {
        try await withExitCodes {
            guard fields.at != nil || fields.here else { throw CLIError.usage("a place needs --at LAT,LON or --here") }
            let settings = try ReaderSettings.load(paths)
            if try PlacesAccess.current(settings)[id] != nil { throw CLIError.usage("place \(id) exists already (use places edit)") }
            let w = try await GarageAccess.write(
                "place.add", [("place", .string(id))] + fields.fields(paths, defaultRadius: 100), settings: settings, paths: paths)
            GarageAccess.report(w, json: json, what: "Place \(id) added")
        }
    }
}

struct PlacesEditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "edit", abstract: "Move, resize or rename a place (a new journal entry).")
    @OptionGroup var paths: PathOptions
    @Argument(help: "The place's id.") var id: String
    @OptionGroup var fields: PlaceFieldOptions
    @Flag(help: "Print the reply as JSON.") var json = false

    func run() async throws {
        try await withExitCodes {
            let settings = try ReaderSettings.load(paths)
            guard try PlacesAccess.current(settings)[id] != nil else { throw CLIError.usage("no place \(id) (see places list)") }
            let w = try await GarageAccess.write(
                "place.amend", [("place", .string(id))] + fields.fields(paths, defaultRadius: nil), settings: settings, paths: paths)
            GarageAccess.report(w, json: json, what: "Place \(id) changed")
        }
    }
}

struct PlacesRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a place (a void entry; the journal keeps its history).")
    @OptionGroup var paths: PathOptions
    @Argument(help: "The place's id.") var id: String
    @Flag(help: "Print the reply as JSON.") var json = false

    func run() async throws {
        try await withExitCodes {
            let settings = try ReaderSettings.load(paths)
            guard try PlacesAccess.current(settings)[id] != nil else { throw CLIError.usage("no place \(id) (see places list)") }
            let w = try await GarageAccess.write("place.remove", [("place", .string(id))], settings: settings, paths: paths)
            GarageAccess.report(w, json: json, what: "Place \(id) removed")
        }
    }
}

struct PlacesListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the named places.")
    @OptionGroup var paths: PathOptions
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        try await withExitCodes {
            let settings = try ReaderSettings.load(paths)
            let places = try PlacesAccess.current(settings).sorted { $0.key < $1.key }
            if json {
                print(JSONValue.array(places.map { id, p in
                    .object([("id", .string(id)), ("name", .string(p.name)), ("lat", .number(p.latitude)),
                             ("lon", .number(p.longitude)), ("radius_m", .number(p.radius))])
                }).serialized)
                return
            }
            guard !places.isEmpty else { return print("No named places (logbook places add ID --at LAT,LON).") }
            for (id, p) in places {
                print("\(id)  \(p.name)  \(NumberText.fixed(p.latitude, places: 5)), \(NumberText.fixed(p.longitude, places: 5))  \(NumberText.fixed(p.radius, places: 0)) m")
            }
        }
    }
}

/// Named places by id, as the caught-up index holds them.
enum PlacesAccess {
    static func current(_ settings: ReaderSettings) throws -> [String: NamedPlace] {
        guard FileManager.default.fileExists(atPath: settings.journalDirectory) else { return [:] }
        return try IndexAccess.withIndex(settings) { index in try PlaceNaming.placesByID(index) }
    }
}
