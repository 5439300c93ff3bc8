// SPDX-License-Identifier: MIT
public import LogbookCore

/// A fill-up the OBD source noticed (`type` `fuel.pending`, subject `<vehicle>@<compact UTC
/// time>`, origin `obd`): the fuel level rose by at least 15 % of the tank while the car stood.
/// It waits for a person to give the price: `fuel.add` with ``FuelRecord/pending`` naming it
/// completes it, a `void` (`fuel.dismiss`) dismisses it.
public struct PendingFillRecord: EntryRecord {
    public static let type = "fuel.pending"

    public static let schema: [EntryField] = [
        EntryField("vehicle", .id),
        EntryField("at", .time),
        EntryField("litres_estimated", .number(0...2000)),
        EntryField("lat", .number(-90...90)),
        EntryField("lon", .number(-180...180)),
        EntryField("level_before", .number(0...100)),
        EntryField("level_after", .number(0...100)),
        EntryField("source", .id),
    ]

    /// The vehicle the source was tied to; nil when it knew none.
    public var vehicle: String?
    public var at: GPSTime
    /// The rise times the vehicle's `tank_l`; nil without a tank size.
    public var litresEstimated: Double?
    /// Where the car stood (not within a privacy zone).
    public var latitude: Double?
    public var longitude: Double?
    /// The fuel level before and after, percent of the tank.
    public var levelBefore: Double?
    public var levelAfter: Double?
    /// The `[[source]]` name that saw it.
    public var source: String?

    public init(
        vehicle: String?, at: GPSTime, litresEstimated: Double?, latitude: Double? = nil, longitude: Double? = nil,
        levelBefore: Double? = nil, levelAfter: Double? = nil, source: String? = nil
    ) {
        self.vehicle = vehicle
        self.at = at
        self.litresEstimated = litresEstimated
        self.latitude = latitude
        self.longitude = longitude
        self.levelBefore = levelBefore
        self.levelAfter = levelAfter
        self.source = source
    }

    public init(fields f: FieldReader) throws(EntryProblem) {
        self.init(
            vehicle: f.string("vehicle"), at: try f.requiredTime("at"), litresEstimated: f.number("litres_estimated"),
            latitude: f.number("lat"), longitude: f.number("lon"), levelBefore: f.number("level_before"),
            levelAfter: f.number("level_after"), source: f.string("source"))
    }

    public var fields: JSONValue {
        var w = FieldWriter()
        w.set("vehicle", vehicle)
        w.set("at", at)
        w.set("litres_estimated", litresEstimated)
        w.set("lat", latitude)
        w.set("lon", longitude)
        w.set("level_before", levelBefore)
        w.set("level_after", levelAfter)
        w.set("source", source)
        return w.json
    }
}
