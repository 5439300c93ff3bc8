// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookGarage
import LogbookRecords
import Testing

/// Fill-ups at three stations, with positions jittered by up to 100 m and names spelled
/// differently, de-duplicate to the hand-computed stations (`docs/garage.md` shows the rules).
@Suite struct FuelStationsTests {
    /// (time, station, lat, lon, litres, price, currency).
    typealias Fill = (String, String?, Double?, Double?, Double, Double, String)

    /// Aral (3 visits, one unnamed 20 m off), Shell (3, EUR and CHF, one 100 m off), and Esso
    /// 137 m from Shell (a different name: its own station); a fill-up without a position; a
    /// voided one at Esso.
    static let fills: [Fill] = [
        ("2026-01-05T10:00:00Z", "Aral Leopoldstraße", 48.16000, 11.58500, 40, 72.00, "EUR"),
        ("2026-01-20T10:00:00Z", "Shell Ingolstädter Str.", 48.20000, 11.60000, 45, 76.50, "EUR"),
        ("2026-02-05T10:00:00Z", "ARAL Leopoldstrasse", 48.16050, 11.58550, 35, 63.35, "EUR"),
        ("2026-02-20T10:00:00Z", "SHELL Ingolstadter Str", 48.20090, 11.60000, 40, 70.00, "EUR"),
        ("2026-03-05T10:00:00Z", nil, 48.16010, 11.58480, 30, 55.20, "EUR"),
        ("2026-03-20T10:00:00Z", "Shell Ingolstädter Str.", 48.19980, 11.60020, 30, 57.00, "CHF"),
        ("2026-03-25T10:00:00Z", "Esso Ingolstädter Str.", 48.20100, 11.60150, 50, 90.00, "EUR"),
        ("2026-03-26T10:00:00Z", "Esso Ingolstädter Str.", 48.20100, 11.60150, 99, 999.00, "EUR"),
        ("2026-03-28T10:00:00Z", "esso ingolstadter str", 48.20110, 11.60140, 10, 18.50, "EUR"),
        ("2026-03-29T10:00:00Z", "Aral Leopoldstraße", nil, nil, 20, 36.00, "EUR"),
    ]

    static func garage() throws -> Garage {
        var seq: UInt64 = 0
        var entries = [try FixtureGarage.entry("vehicle.add", [("vehicle", .string("golf"))], seq: &seq)]
        for (i, f) in fills.enumerated() {
            var fields = FixtureGarage.fill("golf", f.0, 10_000 + Double(i) * 500, f.4, f.5, f.6)
            if let s = f.1 { fields.append(("station", .string(s))) }
            if let lat = f.2, let lon = f.3 { fields += [("lat", .number(lat)), ("lon", .number(lon))] }
            entries.append(try FixtureGarage.entry("fuel.add", fields, seq: &seq))
        }
        entries.append(try FixtureGarage.entry("fuel.void", [("subject", .string("golf@20260326T100000Z"))], seq: &seq))
        return Garage(entries: entries)
    }

    @Test func threeStationsWithTheirVisitsLitresAndPricesNearestFirst() throws {
        let (stations, unplaced) = FuelStations.group(try Self.garage().fuelLogs, from: (48.2010, 11.6015))
        #expect(unplaced == 1)
        // A tie between spellings goes to the latest (the voided fill-up does not vote).
        #expect(stations.map(\.name) == ["esso ingolstadter str", "Shell Ingolstädter Str.", "ARAL Leopoldstrasse"])
        #expect(stations.map(\.visits) == [2, 3, 3])
        #expect(stations.map(\.litres) == [60, 115, 105])
        let esso = stations[0], shell = stations[1], aral = stations[2]
        // 108.50 / 60, (76.50 + 70) / 85 and 57 / 30, 190.55 / 105.
        #expect(abs(esso.pricePerLitre["EUR"]! - 1.808333) < 1e-6 && esso.pricePerLitre.count == 1)
        #expect(abs(shell.pricePerLitre["EUR"]! - 1.723529) < 1e-6 && abs(shell.pricePerLitre["CHF"]! - 1.9) < 1e-9)
        #expect(abs(aral.pricePerLitre["EUR"]! - 1.814762) < 1e-6)
        #expect(ISO8601.format(aral.lastVisit) == "2026-03-05T10:00:00Z" && ISO8601.format(esso.lastVisit) == "2026-03-28T10:00:00Z")
        #expect(aral.fillUps == ["golf@20260105T100000Z", "golf@20260205T100000Z", "golf@20260305T100000Z"])
        // The mean of the members' positions.
        #expect(abs(aral.latitude - 48.1602) < 1e-9 && abs(aral.longitude - 11.5851) < 1e-9)
        #expect(esso.distance! < 10 && (100...200).contains(shell.distance!) && (4_500...4_900).contains(aral.distance!))
    }

    @Test func withoutAnOriginTheNewestVisitComesFirst() throws {
        let (stations, _) = FuelStations.group(try Self.garage().fuelLogs)
        #expect(stations.map(\.visits) == [2, 3, 3] && stations.allSatisfy { $0.distance == nil })
        #expect(stations.map { ISO8601.format($0.lastVisit) } == ["2026-03-28T10:00:00Z", "2026-03-20T10:00:00Z", "2026-03-05T10:00:00Z"])
    }

    @Test func unnamedFillUpsJoinOnlyWithin50Metres() throws {
        func log(_ id: String, _ name: String?, _ lat: Double) -> FuelLog {
            FuelLog(id: id, record: FuelRecord(vehicle: "v", at: GPSTime(seconds: Int64(id.count)), odometerKm: 0, litres: 10, price: 10,
                                               currency: "EUR", station: name, latitude: lat, longitude: 11))
        }
        // 0.0004° of latitude is 44.5 m, 0.0005° 55.6 m.
        let near = FuelStations.group([log("a", nil, 48), log("bb", nil, 48.0004)]).stations
        let far = FuelStations.group([log("a", nil, 48), log("bb", nil, 48.0005)]).stations
        let named = FuelStations.group([log("a", "Agip", 48), log("bb", "AGIP", 48.0013)]).stations  // 144.6 m
        let tooFar = FuelStations.group([log("a", "Agip", 48), log("bb", "AGIP", 48.0014)]).stations  // 155.7 m
        #expect(near.count == 1 && far.count == 2 && named.count == 1 && tooFar.count == 2)
        #expect(FuelStations.normalized("Shell Ingolstädter Str.") == FuelStations.normalized("SHELL Ingolstadter-Str"))
    }

    @Test func geoJSONPutsLongitudeFirstAndCarriesTheFigures() throws {
        let (stations, _) = FuelStations.group(try Self.garage().fuelLogs, from: (48.2010, 11.6015))
        let doc = try JSONValue.parse(Array(FuelStations.geoJSON(stations).serialized.utf8))
        guard case .array(let features)? = doc["features"], case .array(let coords)? = features.first?["geometry"]?["coordinates"] else {
            Issue.record("no features: \(doc.serialized)")
            return
        }
        #expect(features.count == 3 && coords.first?.doubleValue == 11.60145 && coords.last?.doubleValue == 48.20105)
        #expect(features.first?["properties"]?["price_per_litre"]?["EUR"]?.doubleValue == 1.8083)
        #expect(features.first?["properties"]?["links"]?["geo"]?.stringValue?.hasPrefix("geo:48.201050,11.601450") == true)
    }
}

/// The dashboard's price per litre trend on the same fixture: per currency, oldest first.
@Suite struct PriceTrendTests {
    @Test func eachCurrencyItsOwnSeriesVoidedLeftOut() throws {
        let series = PriceTrend.series(try FuelStationsTests.garage().fuelLogs)
        #expect(series.map(\.currency) == ["EUR", "CHF"])
        let eur = series[0]
        // 72/40, 76.5/45, 63.35/35, 70/40, 55.2/30, 90/50, 18.5/10, 36/20 (the 999 EUR one is void).
        #expect(eur.points.map { ($0.perLitre * 10_000).rounded() / 10_000 } == [1.8, 1.7, 1.81, 1.75, 1.84, 1.8, 1.85, 1.8])
        #expect(eur.low == 1.7 && abs(eur.high - 1.85) < 1e-9 && abs(eur.change) < 1e-9)
        #expect(series[1].points.count == 1 && series[1].points[0].perLitre == 1.9)
        let since = PriceTrend.series(try FuelStationsTests.garage().fuelLogs, since: GPSTime(seconds: 1_772_000_000))  // 2026-02-25
        #expect(since.first?.points.count == 4 && abs((since.first?.change ?? 0) - (1.8 / 1.84 - 1)) < 1e-9)
    }
}
