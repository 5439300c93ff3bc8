// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import Testing

/// The hand-off links, checked by parsing them (URLComponents) as the apps do, not by
/// comparing text: scheme, host, path and each query item decode to the place.
@Suite struct MapLinksTests {
    static let places: [(Double, Double, String?)] = [
        (48.137_431, 11.575_493, "Aral Leopoldstraße & Co (Nord)"), (-33.868_8, 151.209_3, nil), (47.291_948, 7.742_912, "Genève?#"),
        (0.000_1, -179.999_9, "a/b;c"),
    ]

    func query(_ c: URLComponents) -> [String: String] {
        Dictionary((c.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { a, _ in a })
    }

    func pair(_ text: String?) -> (Double, Double)? {
        guard let parts = text?.split(separator: ",", omittingEmptySubsequences: false), parts.count == 2,
              let a = Double(parts[0]), let b = Double(parts[1]) else { return nil }
        return (a, b)
    }

    func near(_ p: (Double, Double)?, _ lat: Double, _ lon: Double) -> Bool {
        guard let p else { return false }
        return abs(p.0 - lat) < 1e-6 && abs(p.1 - lon) < 1e-6
    }

    @Test(arguments: 0..<4) func everyLinkParsesToThePlace(_ i: Int) throws {
        let (lat, lon, label) = Self.places[i]
        let links = MapLinks(latitude: lat, longitude: lon, label: label)

        // geo:LAT,LON?q=LAT,LON(LABEL) — RFC 5870's path, Android's q with the label.
        let geo = try #require(URLComponents(string: links.geo), "\(links.geo)")
        #expect(geo.scheme == "geo" && near(pair(geo.path), lat, lon), "\(links.geo)")
        let q = try #require(query(geo)["q"])
        let open = q.firstIndex(of: "(")
        #expect(near(pair(String(q[..<(open ?? q.endIndex)])), lat, lon))
        #expect(open.map { String(q[q.index(after: $0)..<q.index(before: q.endIndex)]) } == label, "\(q)")

        let osm = try #require(URLComponents(string: links.openStreetMap))
        #expect(osm.scheme == "https" && osm.host == "www.openstreetmap.org")
        #expect(Double(query(osm)["mlat"] ?? "") .map { abs($0 - lat) < 1e-6 } == true && Double(query(osm)["mlon"] ?? "").map { abs($0 - lon) < 1e-6 } == true)
        let fragment = osm.fragment?.split(separator: "/") ?? []
        #expect(fragment.count == 3 && fragment[0] == "map=17" && near((Double(fragment[1]) ?? .nan, Double(fragment[2]) ?? .nan), lat, lon))

        let route = try #require(URLComponents(string: links.openStreetMapDirections))
        #expect(route.host == "www.openstreetmap.org" && route.path == "/directions" && query(route)["engine"] == "fossgis_osrm_car")
        let ends = query(route)["route"]?.split(separator: ";", omittingEmptySubsequences: false) ?? []
        #expect(ends.count == 2 && ends[0].isEmpty && near(pair(String(ends[1])), lat, lon), "\(links.openStreetMapDirections)")

        let google = try #require(URLComponents(string: links.googleDirections))
        #expect(google.scheme == "https" && google.host == "www.google.com" && google.path == "/maps/dir/")
        #expect(query(google)["api"] == "1" && query(google)["travelmode"] == "driving" && near(pair(query(google)["destination"]), lat, lon))

        let apple = try #require(URLComponents(string: links.appleDirections))
        #expect(apple.scheme == "https" && apple.host == "maps.apple.com" && query(apple)["dirflg"] == "d" && near(pair(query(apple)["daddr"]), lat, lon))

        #expect(links.named.count == 5 && links.json["geo"]?.stringValue == links.geo)
    }
}
