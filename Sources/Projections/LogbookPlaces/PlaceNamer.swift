// SPDX-License-Identifier: MIT
public import LogbookCore
internal import LogbookRecords

/// Names a position for a person, offline: a named place that contains it (the nearest
/// containing circle), else a privacy zone it is at the edge of (trips start and end there),
/// else the nearest populated place of the bundle ("near Thun, CH"), else nothing (the
/// caller shows coordinates).
public struct PlaceNamer: Sendable {
    public var namedPlaces: [NamedPlace]
    public var privacyZones: [PrivacyZone]
    public var bundle: PlaceBundle?
    /// Farther than this from any populated place, the bundle names nothing (open sea, desert).
    public var maximumBundleDistance = 25_000.0

    /// How far past a privacy zone's edge a trip's recorded end may lie and still be named
    /// after the zone: the edge point is 1 m out; 5 m allows for the journal's rounding.
    static let zoneEdgeSlack = 5.0

    public init(namedPlaces: [NamedPlace] = [], privacyZones: [PrivacyZone] = [], bundle: PlaceBundle? = nil) {
        self.namedPlaces = namedPlaces
        self.privacyZones = privacyZones
        self.bundle = bundle
    }

    /// The name for a position, or nil.
    public func name(latitude: Double, longitude: Double) -> String? {
        if let place = NamedPlace.containing(latitude: latitude, longitude: longitude, in: namedPlaces) { return place.name }
        if let zone = privacyZones.first(where: { $0.distance(latitude: latitude, longitude: longitude) <= $0.radius + Self.zoneEdgeSlack }) {
            return zone.name
        }
        if let near = bundle?.nearest(latitude: latitude, longitude: longitude, within: maximumBundleDistance) {
            return "near \(near.place.name), \(near.place.countryCode)"
        }
        return nil
    }

    /// The trip with `startPlace` and `endPlace` filled in where a name is known.
    public func named(_ trip: TripOverview) -> TripOverview {
        var t = trip
        if let s = t.start { t.startPlace = name(latitude: s.latitude, longitude: s.longitude) }
        if let e = t.end { t.endPlace = name(latitude: e.latitude, longitude: e.longitude) }
        return t
    }
}

/// Named places as the journal holds them: `place` entries (subject: the place's name as
/// first given; fields `name`, `lat`, `lon`, `radius_m`), folded in journal order: `add`
/// creates, `amend` changes the fields it carries, `void` removes.
public enum PlaceEntries {
    /// One entry, as the index or the journal gives it.
    public struct Entry: Sendable {
        public var action: String
        public var subject: String
        public var fields: JSONValue
        public init(action: String, subject: String, fields: JSONValue) {
            self.action = action
            self.subject = subject
            self.fields = fields
        }
    }

    /// The places in effect after `entries` (journal order), sorted by name.
    public static func fold(_ entries: some Sequence<Entry>) -> [NamedPlace] {
        foldByID(entries).values.sorted { $0.name < $1.name }
    }

    /// The places in effect after `entries`, by id (the entries' subject).
    public static func foldByID(_ entries: some Sequence<Entry>) -> [String: NamedPlace] {
        var fields: [String: JSONValue] = [:]
        for e in entries {
            switch e.action {
            case "void": fields[e.subject] = nil
            case "amend": if let old = fields[e.subject] { fields[e.subject] = FieldReader.merged(old, e.fields) }
            default: fields[e.subject] = e.fields
            }
        }
        var places: [String: NamedPlace] = [:]
        for (id, json) in fields {
            guard let p = try? PlaceRecord(json: json), (-90...90).contains(p.latitude), (-180...180).contains(p.longitude), p.radius > 0 else {
                continue
            }
            places[id] = NamedPlace(name: p.name ?? id, latitude: p.latitude, longitude: p.longitude, radius: p.radius)
        }
        return places
    }

    /// The fields of a place entry.
    public static func fields(name: String? = nil, latitude: Double?, longitude: Double?, radius: Double?) -> JSONValue {
        var w = FieldWriter()
        w.set("name", name)
        w.set("lat", latitude)
        w.set("lon", longitude)
        w.set("radius_m", radius)
        return w.json
    }
}
