// SPDX-License-Identifier: MIT
public import LogbookCore

/// A trip's classification for the mileage report (`type` `trip.class`, subject: the trip
/// number). A reclassification is a new entry; the newest one counts.
public struct TripClassRecord: EntryRecord {
    public static let type = "trip.class"
    /// Trip classes for the mileage report.
    public static let classes = ["business", "private", "commute"]

    public static let schema: [EntryField] = [
        EntryField("class", .choice(classes)),
        EntryField("purpose", .text(maxLength: 200)),
        EntryField("partner", .text(maxLength: 200)),
        EntryField("destination", .text(maxLength: 200)),
        EntryField("rule", .id),
    ]

    /// `business`, `private` or `commute`.
    public var tripClass: String
    public var purpose: String?
    public var partner: String?
    public var destination: String?
    /// The classification rule that made it (origin `rule`); nil for a person's.
    public var rule: String?

    public init(tripClass: String, purpose: String? = nil, partner: String? = nil, destination: String? = nil, rule: String? = nil) {
        self.tripClass = tripClass
        self.purpose = purpose
        self.partner = partner
        self.destination = destination
        self.rule = rule
    }

    public init(fields f: FieldReader) throws(EntryProblem) {
        self.init(tripClass: try f.requiredString("class"), purpose: f.string("purpose"), partner: f.string("partner"), destination: f.string("destination"),
            rule: f.string("rule"))
    }

    public var fields: JSONValue {
        var w = FieldWriter()
        w.set("class", tripClass)
        w.set("purpose", purpose)
        w.set("partner", partner)
        w.set("destination", destination)
        w.set("rule", rule)
        return w.json
    }
}
