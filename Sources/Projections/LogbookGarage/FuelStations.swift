// SPDX-License-Identifier: MIT
public import LogbookCore

/// A station refuelled at: the fill-ups that de-duplicate to one place.
public struct FuelStation: Sendable, Hashable {
    /// The spelling used most often (the latest among equals); nil when no fill-up named it.
    public var name: String?
    /// The mean of its fill-ups' positions (degrees, WGS-84).
    public var latitude: Double
    public var longitude: Double
    /// Its fill-ups' ids, oldest first.
    public var fillUps: [String]
    public var lastVisit: GPSTime
    public var litres: Double
    /// Paid per litre in each currency: the sum paid over the litres bought in that currency.
    public var pricePerLitre: [String: Double]
    /// Metres from the position the list was sorted by, when there was one.
    public var distance: Double?

    /// How many times it was visited (one per fill-up).
    public var visits: Int { fillUps.count }
    /// Directions and map links for it.
    public var links: MapLinks { MapLinks(latitude: latitude, longitude: longitude, label: name) }
}

/// Groups fill-ups into stations. A fill-up joins the station, in time order, whose position
/// is within 150 m when both carry a name and the names match (case, spaces, punctuation and
/// accents aside: "ARAL Leopoldstraße" is "Aral Leopold-Strasse"), or within 50 m when either
/// has none; the nearest such station wins, else it starts a new one. Fill-ups without a
/// position are left out (`unplaced`): a station needs a place.
public enum FuelStations {
    /// Same-name fill-ups this close are one station (metres).
    public static let namedRadius = 150.0
    /// An unnamed fill-up this close to a station is that station (metres).
    public static let unnamedRadius = 50.0

    /// The stations of `fills` (voided ones are skipped), sorted by distance from `origin` when
    /// given, else by the last visit, newest first; and how many fill-ups had no position.
    public static func group(_ fills: [FuelLog], from origin: (lat: Double, lon: Double)? = nil) -> (stations: [FuelStation], unplaced: Int) {
        var groups: [Group] = []
        var unplaced = 0
        for f in fills.filter({ !$0.voided }).sorted(by: { ($0.at, $0.id) < ($1.at, $1.id) }) {
            guard let lat = f.latitude, let lon = f.longitude else {
                unplaced += 1
                continue
            }
            let key = f.station.map(normalized).flatMap { $0.isEmpty ? nil : $0 }
            var best: (index: Int, distance: Double)?
            for (i, g) in groups.enumerated() {
                let d = Geodesy.distance(fromLatitude: lat, longitude: lon, toLatitude: g.latitude, longitude: g.longitude)
                let radius: Double
                if let key, !g.keys.isEmpty {
                    guard g.keys.contains(key) else { continue }
                    radius = namedRadius
                } else {
                    radius = unnamedRadius
                }
                if d <= radius, d < (best?.distance ?? .infinity) { best = (i, d) }
            }
            if let best {
                groups[best.index].add(f, lat: lat, lon: lon, key: key)
            } else {
                var g = Group()
                g.add(f, lat: lat, lon: lon, key: key)
                groups.append(g)
            }
        }
        var stations = groups.map { $0.station(from: origin) }
        stations.sort { a, b in
            if let da = a.distance, let db = b.distance, da != db { return da < db }
            return (a.lastVisit, a.fillUps.first ?? "") > (b.lastVisit, b.fillUps.first ?? "")
        }
        return (stations, unplaced)
    }

    /// A station name for comparing: lower case, letters and digits only, common accents
    /// dropped and "ß" as "ss".
    public static func normalized(_ name: String) -> String {
        var out = ""
        for c in name.lowercased() {
            if let plain = folded[c] {
                out += plain
            } else if c.isLetter || c.isNumber {
                out.append(c)
            }
        }
        return out
    }

    private static let folded: [Character: String] = [
        "ß": "ss", "ä": "a", "á": "a", "à": "a", "â": "a", "å": "a", "ö": "o", "ó": "o", "ò": "o", "ô": "o", "ø": "o",
        "ü": "u", "ú": "u", "ù": "u", "û": "u", "é": "e", "è": "e", "ê": "e", "ë": "e", "í": "i", "ì": "i", "î": "i",
        "ï": "i", "ç": "c", "ñ": "n",
    ]

    /// One station while it is being gathered.
    private struct Group {
        var fills: [FuelLog] = []
        var latSum = 0.0, lonSum = 0.0
        var keys: Set<String> = []
        var latitude: Double { latSum / Double(max(fills.count, 1)) }
        var longitude: Double { lonSum / Double(max(fills.count, 1)) }

        mutating func add(_ f: FuelLog, lat: Double, lon: Double, key: String?) {
            fills.append(f)
            latSum += lat
            lonSum += lon
            if let key { keys.insert(key) }
        }

        func station(from origin: (lat: Double, lon: Double)?) -> FuelStation {
            var spellings: [String: (count: Int, last: Int)] = [:]
            var paid: [String: Double] = [:], bought: [String: Double] = [:]
            for (i, f) in fills.enumerated() {
                if let s = f.station, !normalized(s).isEmpty { spellings[s] = ((spellings[s]?.count ?? 0) + 1, i) }
                paid[f.currency, default: 0] += f.price
                bought[f.currency, default: 0] += f.litres
            }
            let name = spellings.max { ($0.value.count, $0.value.last) < ($1.value.count, $1.value.last) }?.key
            var perLitre: [String: Double] = [:]
            for (currency, litres) in bought where litres > 0 { perLitre[currency] = (paid[currency] ?? 0) / litres }
            return FuelStation(
                name: name, latitude: latitude, longitude: longitude, fillUps: fills.map(\.id), lastVisit: fills.map(\.at).max() ?? GPSTime(seconds: 0),
                litres: fills.reduce(0) { $0 + $1.litres }, pricePerLitre: perLitre,
                distance: origin.map { Geodesy.distance(fromLatitude: $0.lat, longitude: $0.lon, toLatitude: latitude, longitude: longitude) })
        }
    }
}
