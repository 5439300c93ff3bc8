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

@Suite struct ServiceDueTests {
    static func task(km: Double?, months: Int?, lastAt: String, lastKm: Double?) throws -> ServiceTask {
        ServiceTask(id: "t", vehicle: "golf", name: "Oil", everyKm: km, everyMonths: months, lastDoneAt: ISO8601.parse(lastAt), lastDoneKm: lastKm, removed: false, history: [])
    }

    // (every km, every months, last done, last km, odometer now, expected state, due at)
    @Test(arguments: [
        (15_000.0, 12, "2026-01-31T08:00:00Z", 10_000.0, 20_000.0, "ok", "2027-01-31T08:00:00Z"),
        (15_000.0, 12, "2026-01-31T08:00:00Z", 10_000.0, 24_000.0, "due_soon", "2027-01-31T08:00:00Z"),  // 1000 km left ≤ 1500
        (15_000.0, 12, "2026-01-31T08:00:00Z", 10_000.0, 25_000.0, "overdue", "2027-01-31T08:00:00Z"),
        (15_000.0, 1, "2026-01-31T08:00:00Z", 10_000.0, 11_000.0, "overdue", "2026-02-28T08:00:00Z"),  // day clamped
        (15_000.0, 10, "2026-01-31T08:00:00Z", 10_000.0, 11_000.0, "due_soon", "2026-11-30T08:00:00Z"),  // 29 days left
    ]) func dueStates(_ km: Double, _ months: Int, _ last: String, _ lastKm: Double, _ now: Double, _ state: String, _ dueAt: String) throws {
        let d = ServiceDue(try Self.task(km: km, months: months, lastAt: last, lastKm: lastKm), odometerNow: now, now: try #require(ISO8601.parse("2026-11-01T08:00:00Z")))
        #expect(d.state.rawValue == state)
        #expect(d.dueAt.map(ISO8601.format) == dueAt)
        #expect(d.dueKm == lastKm + km)
    }
}
