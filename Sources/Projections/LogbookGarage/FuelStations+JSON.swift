// SPDX-License-Identifier: MIT
public import LogbookCore

extension FuelStation {
    /// The station's members for `fuel stations --json` and a GeoJSON feature's properties
    /// (names are a contract: `docs/reference/cli.md`).
    public var properties: [(String, JSONValue)] {
        [
            ("name", .string(name)), ("visits", .integer(visits)), ("last_visit", .string(ISO8601.format(lastVisit))),
            ("litres", .number(GarageStats.round(litres, 3))),
            ("price_per_litre", .object(pricePerLitre.keys.sorted().map { ($0, .number(GarageStats.round(pricePerLitre[$0] ?? 0, 4))) })),
            ("distance_m", .number(distance.map { GarageStats.round($0, 0) })), ("fill_ups", .array(fillUps.map(JSONValue.string))),
            ("links", links.json),
        ]
    }

    /// `properties` with the position first.
    public var json: JSONValue {
        .object([("lat", .number(GarageStats.round(latitude, 6))), ("lon", .number(GarageStats.round(longitude, 6)))] + properties)
    }

    /// A GeoJSON Point feature (RFC 7946: longitude first).
    public var feature: JSONValue {
        .object([
            ("type", .string("Feature")),
            ("geometry", .object([("type", .string("Point")), ("coordinates", .array([.number(GarageStats.round(longitude, 6)), .number(GarageStats.round(latitude, 6))]))])),
            ("properties", .object(properties)),
        ])
    }
}

extension FuelStations {
    /// Where a station list was measured from: `live` (the daemon's fix) or `last_trip`.
    public struct Origin: Sendable, Hashable {
        public var latitude: Double
        public var longitude: Double
        public var source: String
        public init(latitude: Double, longitude: Double, source: String) {
            self.latitude = latitude
            self.longitude = longitude
            self.source = source
        }
        public var json: JSONValue {
            .object([("lat", .number(latitude)), ("lon", .number(longitude)), ("source", .string(source))])
        }
    }

    /// `fuel stations --json`: `{from, stations, unplaced}`.
    public static func json(_ stations: [FuelStation], unplaced: Int, from origin: Origin?) -> JSONValue {
        .object([("from", origin?.json ?? .null), ("stations", .array(stations.map(\.json))), ("unplaced", .integer(unplaced))])
    }

    /// `fuel stations --geojson`: a FeatureCollection of the stations, nearest first.
    public static func geoJSON(_ stations: [FuelStation]) -> JSONValue {
        .object([("type", .string("FeatureCollection")), ("features", .array(stations.map(\.feature)))])
    }
}
