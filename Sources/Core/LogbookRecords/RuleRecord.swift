// SPDX-License-Identifier: MIT
public import LogbookCore

/// A classification rule (`type` `rule`, subject: the rule's name), made by `logbook rules add`
/// and removed with a void; `[[rule]]` tables of the configuration file have the same fields
/// (and `name`). Conditions first, then what a matching trip is classified as.
/// ``ClassificationRule`` checks and evaluates it.
public struct RuleRecord: EntryRecord {
    public static let type = "rule"

    /// The condition fields; a rule needs at least one.
    public static let conditionFields = ["start_place", "end_place", "weekdays", "time", "vehicle", "driver", "min_km"]

    public static let schema: [EntryField] = [
        EntryField("start_place", .id),
        EntryField("end_place", .id),
        EntryField("weekdays", .text(maxLength: 60)),
        EntryField("time", .text(maxLength: 20)),
        EntryField("vehicle", .id),
        EntryField("driver", .text(maxLength: 80)),
        EntryField("min_km", .number(0...100_000)),
        EntryField("class", .choice(TripClassRecord.classes)),
        EntryField("purpose", .text(maxLength: 200)),
        EntryField("partner", .text(maxLength: 200)),
        EntryField("destination", .text(maxLength: 200)),
    ]

    /// A named place's id the trip starts in.
    public var startPlace: String?
    /// A named place's id the trip ends in.
    public var endPlace: String?
    /// `mon-fri`, `sat,sun`: the local weekday the trip starts on.
    public var weekdays: String?
    /// `07:00-09:30`: the local time the trip starts at (from inclusive, until exclusive; a
    /// window past midnight such as `22:00-02:00` wraps).
    public var time: String?
    public var vehicle: String?
    public var driver: String?
    /// The trip is at least this long (km).
    public var minimumKm: Double?
    /// The action: `business`, `private` or `commute`, and the texts set with it.
    public var tripClass: String
    public var purpose: String?
    public var partner: String?
    public var destination: String?

    public init(
        startPlace: String? = nil, endPlace: String? = nil, weekdays: String? = nil, time: String? = nil, vehicle: String? = nil,
        driver: String? = nil, minimumKm: Double? = nil, tripClass: String, purpose: String? = nil, partner: String? = nil,
        destination: String? = nil
    ) {
        self.startPlace = startPlace
        self.endPlace = endPlace
        self.weekdays = weekdays
        self.time = time
        self.vehicle = vehicle
        self.driver = driver
        self.minimumKm = minimumKm
        self.tripClass = tripClass
        self.purpose = purpose
        self.partner = partner
        self.destination = destination
    }

    public init(fields f: FieldReader) throws(EntryProblem) {
        self.init(
            startPlace: f.string("start_place"), endPlace: f.string("end_place"), weekdays: f.string("weekdays"), time: f.string("time"),
            vehicle: f.string("vehicle"), driver: f.string("driver"), minimumKm: f.number("min_km"), tripClass: try f.requiredString("class"),
            purpose: f.string("purpose"), partner: f.string("partner"), destination: f.string("destination"))
    }

    public var fields: JSONValue {
        var w = FieldWriter()
        w.set("start_place", startPlace)
        w.set("end_place", endPlace)
        w.set("weekdays", weekdays)
        w.set("time", time)
        w.set("vehicle", vehicle)
        w.set("driver", driver)
        w.set("min_km", minimumKm)
        w.set("class", tripClass)
        w.set("purpose", purpose)
        w.set("partner", partner)
        w.set("destination", destination)
        return w.json
    }
}
