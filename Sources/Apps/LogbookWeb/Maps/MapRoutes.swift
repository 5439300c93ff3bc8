// SPDX-License-Identifier: MIT
internal import Hummingbird
internal import LogbookCore
internal import LogbookExport
internal import LogbookStore

extension WebApp {
    /// At most this many points go to a phone's map (every k-th point of a longer trip).
    static let mapPointLimit = 3000

    func addMapRoutes(to router: Router<WebContext>) {
        // The route for the trip page's map and speed chart: time (s since the start), position,
        // speed and its colour band (``SpeedColor``, the picture's scale), and the band colours.
        router.get("/api/trips/:id/track") { _, context -> Response in
            let id = try Self.tripID(context.parameters.get("id"))
            let track = try await shelf.read { index -> JSONValue in
                try Self.checkNotMerged(id, index)
                guard let trip = try index.trip(id) else { throw APIError(.notFound, "unknown_trip", "no trip \(id)") }
                return Self.trackJSON(trip, try index.points(of: id))
            }
            return Responses.json(track)
        }
        addStationsPage(to: router)
    }

    /// `GET /api/trips/{id}/track`.
    static func trackJSON(_ trip: TripOverview, _ points: [TripPoint]) -> JSONValue {
        let step = max(1, (points.count + mapPointLimit - 1) / mapPointLimit)
        let top = max(trip.maxSpeed, points.compactMap(\.speed).max() ?? 0)
        let t0 = points.first?.time ?? GPSTime(seconds: 0)
        var rows: [JSONValue] = []
        for (i, p) in points.enumerated() where i % step == 0 || i == points.count - 1 {
            let speed = p.speed ?? 0
            rows.append(.array([
                .number(GarageRound.value(p.time.seconds(since: t0), 1)), .number(GarageRound.value(p.latitude, 6)),
                .number(GarageRound.value(p.longitude, 6)), .number(GarageRound.value(speed, 2)), .integer(SpeedColor.band(speed, max: top)),
            ]))
        }
        func place(_ p: TripOverview.Position?, _ name: String?) -> JSONValue {
            guard let p else { return .null }
            return .object([("lat", .number(p.latitude)), ("lon", .number(p.longitude)), ("name", .string(name)),
                            ("links", MapLinks(latitude: p.latitude, longitude: p.longitude, label: name).json)])
        }
        return .object([
            ("id", .string(trip.id.description)), ("max_speed_mps", .number(top)),
            ("colors", .array((0..<SpeedColor.bands).map { .string(SpeedColor.hex(band: $0)) })),
            ("fields", .array(["t_s", "lat", "lon", "speed_mps", "band"].map(JSONValue.string))), ("points", .array(rows)),
            ("start", place(trip.start, trip.startPlace)), ("end", place(trip.end, trip.endPlace)),
        ])
    }
}

/// Rounding for the map's JSON (short numbers for the phone).
enum GarageRound {
    static func value(_ v: Double, _ places: Int) -> Double {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return (v * scale).rounded() / scale
    }
}

/// The map element the pages carry: `map.js` builds a Leaflet map in it from its data
/// attributes (tile template and attribution, or none: a plain background).
enum MapHTML {
    static func element(id: String, tiles: MapTiles, data: [(String, String)], label: String) -> String {
        var attributes = "id=\"\(id)\" class=\"map\" role=\"region\" aria-label=\"\(HTML.escape(label))\""
        attributes += " data-tiles=\"\(HTML.escape(tiles.template))\" data-attribution=\"\(HTML.escape(tiles.attribution))\""
        for (k, v) in data { attributes += " data-\(k)=\"\(HTML.escape(v))\"" }
        return "<div \(attributes)><p class=\"map-status muted small\" hidden></p></div>"
    }

    /// The hand-off links of a place, as a row of small links.
    static func links(_ links: MapLinks, id: String? = nil) -> String {
        var out = "<span class=\"handoff\"\(id.map { " id=\"\($0)\"" } ?? "")>"
        for (name, url) in links.named {
            out += "<a href=\"\(HTML.escape(url))\" rel=\"noopener\" target=\"_blank\">\(HTML.escape(name))</a> "
        }
        return out + "</span>"
    }
}
