// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookGarage
import Testing

@Suite struct StatsTests {
    static func stats(_ range: String = "all", vehicle: String? = nil) throws -> GarageStats {
        let r = try #require(StatsRange.named(range, now: FixtureGarage.now))
        return GarageStats(garage: try FixtureGarage.garage(), range: r, vehicle: vehicle, tripKm: ["golf": 1912.5, "van": 1650, "": 3])
    }

    /// Every figure hand-computed from the fixture (see FixtureGarage and docs/garage.md).
    @Test func allVehiclesAllTime() throws {
        let s = try Self.stats()
        let j = s.json
        #expect(j["fill_ups"] == .number(10))  // 6 golf + 4 van (the void one left out)
        #expect(j["total_fuel_l"] == .number(346))  // 172 + 174
        #expect(j["total_spend"] == .object([("CHF", .number(40)), ("EUR", .number(220.5)), ("USD", .number(261))]))
        #expect(j["economy_l_per_100km"] == .number(6.457))  // 226 L / 3500 km
        #expect(j["cost_per_km"] == .object([("EUR", .number(0.0914)), ("USD", .number(0.1069))]))  // 100.5/1100, 171/1600
        #expect(j["cost_per_l"] == .object([("CHF", .number(1.6)), ("EUR", .number(1.5)), ("USD", .number(1.5))]))
        #expect(j["total_distance_km"] == .number(3565.5))
        #expect(j["last_fill_up"]?["id"] == .string("golf@20260330T100000Z"))
        #expect(s.recent.map(\.id) == ["golf@20260330T100000Z", "van@20260315T100000Z", "golf@20260310T100000Z", "van@20260301T100000Z", "golf@20260220T100000Z"])
        #expect(s.vehicles.map(\.id) == ["golf", "van"])
        #expect(s.vehicles.map(\.fillUps) == [6, 4])
        #expect(s.vehicles[0].spend == ["EUR": 220.5, "CHF": 40])
    }

    @Test func oneVehicle() throws {
        let j = try Self.stats(vehicle: "van").json
        #expect(j["fill_ups"] == .number(4))
        #expect(j["total_fuel_l"] == .number(174))
        #expect(j["total_spend"] == .object([("USD", .number(261))]))
        #expect(j["economy_l_per_100km"] == .number(7.125))
        #expect(j["total_distance_km"] == .number(1650))
    }

    /// `year` buckets by month: February closes golf 800 km/45 L, golf 600/36, van 800/64;
    /// March golf 500/31 and van 800/50.
    @Test func monthlyTrend() throws {
        let s = try Self.stats("year")
        #expect(s.trend.map(\.label) == ["2026-02", "2026-03"])
        #expect(s.json["trend"]?.arrayValues.map { $0["economy_l_per_100km"] } == [.number(6.591), .number(6.231)])
        #expect(s.trend.map(\.distanceKm) == [2200, 1300])
    }

    /// The last 30 days before 2026-04-01 hold the fills from March 2 on.
    @Test func monthRange() throws {
        let j = try Self.stats("month").json
        #expect(j["fill_ups"] == .number(3))  // golf 03-10, 03-30, van 03-15
        #expect(j["total_spend"] == .object([("EUR", .number(91.5)), ("USD", .number(60))]))
        // golf 12000→12500 (31 L) and van 50800→51600 (50 L) close in the range.
        #expect(j["economy_l_per_100km"] == .number(6.231))
    }

    @Test(arguments: [
        ("2026-11-23T12:00:00Z", "week", "2026-W48"), ("2021-01-03T12:00:00Z", "week", "2020-W53"),
        ("2024-12-30T00:00:00Z", "week", "2025-W01"), ("2026-02-28T23:59:59Z", "day", "2026-02-28"),
        ("1999-12-31T23:00:00Z", "month", "1999-12"),
    ]) func bucketLabels(_ time: String, _ bucket: String, _ label: String) throws {
        let t = try #require(ISO8601.parse(time))
        let range = StatsRange(name: "x", since: nil, until: t, bucket: try #require(StatsRange.Bucket(rawValue: bucket)))
        #expect(range.label(t) == label)
    }
}

extension JSONValue {
    var arrayValues: [JSONValue] { if case .array(let a) = self { a } else { [] } }
}
