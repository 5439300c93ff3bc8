// SPDX-License-Identifier: MIT
public import LogbookCore

/// A named place (`type` `place`, subject: its id, e.g. `home`): a circle that names the trips
/// starting or ending in it. Removed with a void.
public struct PlaceRecord: EntryRecord {
    public static let type = "place"

    public static let schema: [EntryField] = [
        EntryField("name", .text(maxLength: 80)),
        EntryField("lat", .number(-90...90)),
        EntryField("lon", .number(-180...180)),
        EntryField("radius_m", .number(10...50_000)),
    ]

    /// What is shown; the id when not set.
    public var name: String?
    public var latitude: Double
    public var longitude: Double
    /// Metres; 100 when not set.
    public var radius: Double

    public init(name: String? = nil, latitude: Double, longitude: Double, radius: Double = 100) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
    }

    public init(fields f: FieldReader) throws(EntryProblem) {
        self.init(
            name: f.string("name"), latitude: try f.requiredNumber("lat"), longitude: try f.requiredNumber("lon"),
            radius: f.number("radius_m") ?? 100)
    }

    public var fields: JSONValue {
        var w = FieldWriter()
        w.set("name", name)
        w.set("lat", latitude)
        w.set("lon", longitude)
        w.set("radius_m", radius)
        return w.json
    }
}
