// SPDX-License-Identifier: MIT

/// Links that hand a place over to a navigation app: a `geo:` URI (Android's intent, OsmAnd,
/// Organic Maps), OpenStreetMap's map and directions, Google Maps' and Apple Maps' directions.
/// Coordinates go out with 6 decimals (about 0.1 m); a label is percent-encoded.
public struct MapLinks: Sendable, Hashable {
    /// `geo:LAT,LON?q=LAT,LON(LABEL)` (RFC 5870 plus the `q` query Android's apps read).
    public var geo: String
    /// OpenStreetMap centred on the place with a marker.
    public var openStreetMap: String
    /// OpenStreetMap's car directions to the place (from wherever the person is).
    public var openStreetMapDirections: String
    /// Google Maps' driving directions (the `api=1` URL form).
    public var googleDirections: String
    /// Apple Maps' driving directions.
    public var appleDirections: String

    /// The links to the point at `latitude`, `longitude` (degrees, WGS-84), named `label`.
    public init(latitude: Double, longitude: Double, label: String? = nil) {
        let lat = NumberText.fixed(latitude, places: 6), lon = NumberText.fixed(longitude, places: 6)
        let pair = lat + "," + lon
        let name = label.map { "(" + Self.escaped($0) + ")" } ?? ""
        geo = "geo:\(pair)?q=\(pair)\(name)"
        openStreetMap = "https://www.openstreetmap.org/?mlat=\(lat)&mlon=\(lon)#map=17/\(lat)/\(lon)"
        openStreetMapDirections = "https://www.openstreetmap.org/directions?engine=fossgis_osrm_car&route=%3B\(lat)%2C\(lon)"
        googleDirections = "https://www.google.com/maps/dir/?api=1&destination=\(lat)%2C\(lon)&travelmode=driving"
        appleDirections = "https://maps.apple.com/?daddr=\(lat)%2C\(lon)&dirflg=d"
    }

    /// The links as JSON (`geo`, `osm`, `osm_directions`, `google_directions`, `apple_directions`).
    public var json: JSONValue {
        .object([
            ("geo", .string(geo)), ("osm", .string(openStreetMap)), ("osm_directions", .string(openStreetMapDirections)),
            ("google_directions", .string(googleDirections)), ("apple_directions", .string(appleDirections)),
        ])
    }

    /// Each link with a name for people, in the order the pages show them.
    public var named: [(name: String, url: String)] {
        [("Navigate (app)", geo), ("OpenStreetMap", openStreetMap), ("OSM directions", openStreetMapDirections),
         ("Google Maps", googleDirections), ("Apple Maps", appleDirections)]
    }

    /// `text` percent-encoded as UTF-8, keeping only RFC 3986's unreserved characters.
    public static func escaped(_ text: String) -> String {
        var out = ""
        for b in text.utf8 {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(b))
            default:
                let hex = String(b, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }
}
