// SPDX-License-Identifier: MIT
import ArgumentParser
import LogbookCore
import LogbookGarageStore
import LogbookRecords
import LogbookSettings

/// `logbook rules list|add|remove|test|apply`: classification rules. `[[rule]]` tables of the
/// configuration come first, then the rules `rules add` journaled (`rule` entries), in order;
/// the first that matches a trip classifies it, and a person's classification always wins.
struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules", abstract: "Classification rules that classify trips for the mileage report.",
        subcommands: [RulesListCommand.self, RulesAddCommand.self, RulesRemoveCommand.self, RulesTestCommand.self, RulesApplyCommand.self])
}

/// `logbook rules list [--json]`.
struct RulesListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the rules in the order they are tried.")
    @OptionGroup var paths: PathOptions
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        try await withExitCodes {
            let settings = try ReaderSettings.load(paths)
            let rules = try IndexAccess.withIndex(settings) { index in try RuleApplier.rules(try settings.withVehicles(from: index), index) }
            if json {
                print(JSONValue.array(rules.map(RuleText.json)).serialized)
            } else if rules.isEmpty {
                print("No rules. Add one with `logbook rules add NAME --class CLASS` and a condition, or [[rule]] in the config.")
            } else {
                for (i, r) in rules.enumerated() { print("\(i + 1). \(RuleText.line(r))") }
            }
        }
    }
}

/// `logbook rules add NAME [conditions] --class CLASS [--purpose T] [--partner T] [--destination T]`.
struct RulesAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add a rule (tried after those already there; needs at least one condition).")
    @OptionGroup var paths: PathOptions
    @Argument(help: "The rule's name (an id, e.g. office-weekdays).") var name: String
    @Option(name: .customLong("start-place"), help: "The trip starts in this named place (its id).") var startPlace: String?
    @Option(name: .customLong("end-place"), help: "The trip ends in this named place (its id).") var endPlace: String?
    @Option(help: "Local weekdays the trip starts on: mon-fri, sat,sun, …") var weekdays: String?
    @Option(help: "Local time window the trip starts in: HH:MM-HH:MM (wraps past midnight).") var time: String?
    @Option(help: "The trip's vehicle (its id).") var vehicle: String?
    @Option(help: "The trip's driver.") var driver: String?
    @Option(name: .customLong("min-km"), help: "The trip is at least this many kilometres.") var minKm: Double?
    @Option(name: .customLong("class"), help: "business, private or commute.") var tripClass: String
    @Option(help: "Business purpose set with the class.") var purpose: String?
    @Option(help: "Business partner set with the class.") var partner: String?
    @Option(help: "Destination set with the class.") var destination: String?
    @Flag(help: "Print the reply as JSON.") var json = false

    func run() async throws {
        try await withExitCodes {
            var settings = try ReaderSettings.load(paths)
            try IndexAccess.withIndex(settings) { index in
                settings = try settings.withVehicles(from: index)
                let existing = try RuleApplier.rules(settings, index)
                if existing.contains(where: { $0.name == name }) { throw CLIError.usage("there is a rule named \(name) already") }
                let places = try GarageStore.namedPlaces(index)
                for (option, place) in [("--start-place", startPlace), ("--end-place", endPlace)] {
                    if let place, places[place] == nil {
                        throw CLIError.usage("\(option): no named place has id \"\(place)\" (known: \(places.isEmpty ? "none" : places.keys.sorted().joined(separator: ", ")))")
                    }
                }
                let vehicles = Set(settings.registry.keys).union(settings.daemon.vehicles.map(\.id))
                if let vehicle, !vehicles.contains(vehicle) {
                    throw CLIError.usage("--vehicle: no vehicle has id \"\(vehicle)\" (known: \(vehicles.isEmpty ? "none" : vehicles.sorted().joined(separator: ", ")))")
                }
            }
            let w = try await GarageAccess.write(
                "rule.add",
                [("rule", .string(name)), ("start_place", .option(startPlace)), ("end_place", .option(endPlace)), ("weekdays", .option(weekdays)),
                 ("time", .option(time)), ("vehicle", .option(vehicle)), ("driver", .option(driver)), ("min_km", .option(minKm)),
                 ("class", .string(tripClass.lowercased())), ("purpose", .option(purpose)), ("partner", .option(partner)),
                 ("destination", .option(destination))],
                settings: settings, paths: paths)
            GarageAccess.report(w, json: json, what: "Rule \(name) added")
        }
    }
}

/// `logbook rules remove NAME`.
struct RulesRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove a rule `rules add` made (the classifications it made stay).")
    @OptionGroup var paths: PathOptions
    @Argument(help: "The rule's name.") var name: String
    @Option(help: "Why (shown in the history).") var reason: String?
    @Flag(help: "Print the reply as JSON.") var json = false

    func run() async throws {
        try await withExitCodes {
            let settings = try ReaderSettings.load(paths)
            if let i = settings.daemon.rules.firstIndex(where: { $0.name == name }) {
                throw CLIError.usage("rule \(name) is rule[\(i)] of the configuration file: remove it there")
            }
            let known = try IndexAccess.withIndex(settings) { index in try RuleApplier.journalRules(index).map(\.id) }
            guard known.contains(name) else { throw CLIError.usage("no rule named \(name)") }
            let w = try await GarageAccess.write("rule.remove", [("rule", .string(name)), ("reason", .option(reason))], settings: settings, paths: paths)
            GarageAccess.report(w, json: json, what: "Rule \(name) removed")
        }
    }
}

/// `logbook rules test RULE [--since DATE] [--json]`: what the rule would change; writes nothing.
struct RulesTestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test", abstract: "List what one rule would classify (as if it were the only rule); writes nothing.")
    @OptionGroup var paths: PathOptions
    @Argument(help: "The rule's name.") var name: String
    @Option(help: "Trips that started on or after DATE (YYYY-MM-DD local, or ISO 8601).") var since: String?
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        try await withExitCodes {
            let settings = try ReaderSettings.load(paths)
            let from = try since.map { try DateArgument.parse($0, option: "--since", endOfDay: false) }
            let (changes, context) = try IndexAccess.withIndex(settings) { index in
                let context = try RuleApplier.context(settings, index, since: from)
                guard let rule = context.rules.first(where: { $0.name == name }) else { throw CLIError.usage("no rule named \(name)") }
                return (RuleBook.plan([rule], trips: context.trips, current: context.current), context)
            }
            RuleText.printChanges(changes, context, json: json, verb: "would classify")
        }
    }
}

/// `logbook rules apply [--since DATE] [--json]`: journals what the rules decide.
struct RulesApplyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apply", abstract: "Classify past trips by the rules (origin rule); a person's classification is never changed.")
    @OptionGroup var paths: PathOptions
    @Option(help: "Trips that started on or after DATE (YYYY-MM-DD local, or ISO 8601).") var since: String?
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        try await withExitCodes {
            let settings = try ReaderSettings.load(paths)
            let from = try since.map { try DateArgument.parse($0, option: "--since", endOfDay: false) }
            let (changes, context) = try IndexAccess.withIndex(settings) { index in
                let context = try RuleApplier.context(settings, index, since: from)
                return (RuleBook.plan(context.rules, trips: context.trips, current: context.current), context)
            }
            try await RuleApplier.write(changes, settings: settings)
            RuleText.printChanges(changes, context, json: json, verb: "classified")
        }
    }
}
