// SPDX-License-Identifier: MIT
public import LogbookCore

/// What a classification rule looks at in a trip. The caller works out the named places the
/// trip starts and ends in and its local weekday and time, so evaluation stays pure.
public struct RuleTrip: Sendable, Hashable {
    public var number: TripID
    public var vehicle: String?
    public var driver: String?
    /// Metres.
    public var distance: Double
    /// Ids of the named places containing the first and the last point.
    public var startPlaces: Set<String>
    public var endPlaces: Set<String>
    /// ISO weekday (1 Monday … 7 Sunday) and minutes after midnight, local time, at the start.
    public var localWeekday: Int?
    public var localMinute: Int?

    public init(
        number: TripID, vehicle: String? = nil, driver: String? = nil, distance: Double, startPlaces: Set<String> = [],
        endPlaces: Set<String> = [], localWeekday: Int?, localMinute: Int?
    ) {
        self.number = number
        self.vehicle = vehicle
        self.driver = driver
        self.distance = distance
        self.startPlaces = startPlaces
        self.endPlaces = endPlaces
        self.localWeekday = localWeekday
        self.localMinute = localMinute
    }
}

/// Rule evaluation: the first matching rule classifies a trip; a person's classification is
/// never replaced. Pure; `logbook rules test|apply` and the trip-end applier share it.
public enum RuleBook {
    /// A classification a rule would make.
    public struct Change: Sendable, Hashable {
        public var trip: TripID
        public var rule: String
        public var classification: TripClassRecord
        /// What the trip holds now (a rule's earlier classification), if anything.
        public var previous: TripClassRecord?
    }

    /// The trip's current classification, as far as rules care.
    public struct Current: Sendable, Hashable {
        public var record: TripClassRecord
        /// `rule` for a rule's, anything else is a person's (`cli`, `web`, `import`, …).
        public var origin: String

        public init(record: TripClassRecord, origin: String) {
            self.record = record
            self.origin = origin
        }

        public var byPerson: Bool { origin != EntryOrigin.rule }
    }

    /// The first of `rules` (in order) that matches `trip`.
    public static func firstMatch(_ rules: [ClassificationRule], _ trip: RuleTrip) -> ClassificationRule? {
        rules.first { $0.matches(trip) }
    }

    /// What `rules` would change in `trips`: a trip a person classified is left alone; one a
    /// rule classified is reclassified when the first match now says otherwise, unless
    /// `onlyUnclassified` (trip ends: a rule classifies a trip once).
    public static func plan(
        _ rules: [ClassificationRule], trips: [RuleTrip], current: [TripID: Current], onlyUnclassified: Bool = false
    ) -> [Change] {
        var out: [Change] = []
        for trip in trips {
            let now = current[trip.number]
            if let now, now.byPerson || onlyUnclassified { continue }
            guard let rule = firstMatch(rules, trip) else { continue }
            let made = rule.classification
            if now?.record == made { continue }
            out.append(Change(trip: trip.number, rule: rule.name, classification: made, previous: now?.record))
        }
        return out
    }
}
