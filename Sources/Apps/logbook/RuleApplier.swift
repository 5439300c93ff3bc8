// SPDX-License-Identifier: MIT
import Foundation
import LogbookConfig
import LogbookCore
import LogbookGarage
import LogbookGarageStore
import LogbookPlaces
import LogbookRecords
import LogbookSettings
import LogbookStore

/// Classification rules over the index: the rules in effect (`[[rule]]`, then those `rules add`
/// journaled), the trips as rules see them, and writing what they decide (origin `rule`).
/// The evaluation itself is ``RuleBook`` (pure).
enum RuleApplier {
    /// What a run of the rules works on.
    struct Context {
        var rules: [ClassificationRule]
        var trips: [RuleTrip]
        var current: [TripID: RuleBook.Current]
        /// The trips by number (for the listing).
        var overviews: [TripID: TripOverview]
    }

    /// The rules in effect: the configuration's, then the journal's (not removed), in the
    /// order they were added. A config rule naming an unknown place or vehicle ends the
    /// command with exit 78, naming the key.
    static func rules(_ settings: ReaderSettings, _ index: TripIndex) throws -> [ClassificationRule] {
        let places = Set(try GarageStore.namedPlaces(index).keys)
        let vehicles = Set(settings.registry.keys).union(settings.daemon.vehicles.map(\.id))
        do {
            try settings.daemon.checkRuleReferences(places: places, vehicles: vehicles)
        } catch {
            throw CLIError.config(error.description)
        }
        return settings.daemon.rules + (try journalRules(index).compactMap { try? ClassificationRule(name: $0.id, record: $0.record) })
    }

    /// The journal's rules (`rules add`), removed ones left out.
    static func journalRules(_ index: TripIndex) throws -> [Folded<RuleRecord>] {
        var fold = EntryFold<RuleRecord>()
        try index.forEachEntry(type: RuleRecord.type) { e in
            fold.apply(RecordedEntry(e))
            return true
        }
        return fold.items.filter { !$0.voided }
    }

    /// Closed, kept, not voided trips started at or after `since`, with what rules look at.
    static func context(_ settings: ReaderSettings, _ index: TripIndex, since: GPSTime?) throws -> Context {
        let settings = try settings.withVehicles(from: index)
        let rules = try rules(settings, index)
        let places = try GarageStore.namedPlaces(index)
        let overviews = try index.trips(matching: TripQuery(since: since, includeDiscarded: false, includeVoided: false))
            .filter { $0.state == .closed }.sorted { $0.id < $1.id }
        let trips = overviews.map { ruleTrip($0, places: places, driver: settings.driver(of: $0)) }
        var garage = Garage(entries: [])
        try index.forEachEntry(type: TripClassRecord.type) { e in
            garage.apply(RecordedEntry(e))
            return true
        }
        let current = garage.classifications.compactMapValues { c in
            c.origin.map { RuleBook.Current(record: c.record, origin: $0) }
        }
        return Context(rules: rules, trips: trips, current: current, overviews: Dictionary(uniqueKeysWithValues: overviews.map { ($0.id, $0) }))
    }

    /// A trip as rules see it: the named places its ends lie in, its local start weekday and time.
    static func ruleTrip(_ t: TripOverview, places: [String: NamedPlace], driver: String?) -> RuleTrip {
        func inside(_ p: TripOverview.Position?) -> Set<String> {
            guard let p else { return [] }
            return Set(places.filter { $0.value.contains(latitude: p.latitude, longitude: p.longitude) }.keys)
        }
        var weekday: Int?, minute: Int?
        if let start = t.startedAt {
            (weekday, minute) = LocalZone.rules.weekdayAndMinute(start)
        }
        return RuleTrip(
            number: t.id, vehicle: t.vehicleID, driver: driver, distance: t.distance, startPlaces: inside(t.start), endPlaces: inside(t.end),
            localWeekday: weekday, localMinute: minute)
    }

    /// Journals `changes` (origin `rule`, the rule named in the entry) through logbookd, or
    /// under the journal's lock when none runs. Returns how many were written.
    @discardableResult
    static func write(_ changes: [RuleBook.Change], settings: ReaderSettings) async throws -> Int {
        guard let command = EntryCommand.named("trip.classify") else { return 0 }
        let now = GarageAccess.wallClock()
        var entries: [(RecordEntry, [(String, JSONValue)])] = []
        for change in changes {
            let c = change.classification
            let request: [(String, JSONValue)] = [
                ("cmd", .string(command.name)), ("trip", .number(Double(change.trip.rawValue))), ("class", .string(c.tripClass)),
                ("purpose", .option(c.purpose)), ("partner", .option(c.partner)), ("destination", .option(c.destination)),
                ("rule", .string(change.rule)), ("origin", .string(EntryOrigin.rule)),
            ].filter { !$0.1.isNull }
            do {
                entries.append((try command.draft(.object(request), now: now), request))
            } catch {
                throw CLIError.problem(error.message)
            }
        }
        return try await GarageAccess.writeMany(entries, settings: settings).0
    }
}
