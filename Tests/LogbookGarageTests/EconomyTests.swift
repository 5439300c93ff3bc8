// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookGarage
import LogbookRecords
import Testing

@Suite struct EconomyTests {
    struct Expected: Sendable {
        var vehicle: String
        /// (km, litres) per interval, in odometer order.
        var intervals: [(Double, Double)]
        var lPer100: Double
    }

    // Hand-computed in docs/garage.md: golf 10000→10800 (partial 20 L + 25 L = 45 L over
    // 800 km), 10800→11400 (36 L after the amendment), 11400→12000 void (missed),
    // 12000→12500 (31 L); van 50000→50800 (64 L), 50800→51600 (10 L partial + 40 L; the
    // voided 51100 fill does not count).
    static let cases: [Expected] = [
        Expected(vehicle: "golf", intervals: [(800, 45), (600, 36), (500, 31)], lPer100: 112.0 / 1900 * 100),
        Expected(vehicle: "van", intervals: [(800, 64), (800, 50)], lPer100: 114.0 / 1600 * 100),
    ]

    @Test(arguments: cases) func fullTankIntervals(_ c: Expected) throws {
        let garage = try FixtureGarage.garage()
        let intervals = FuelEconomy.intervals(garage.activeFills(vehicle: c.vehicle))
        #expect(intervals.map(\.distanceKm) == c.intervals.map(\.0))
        #expect(intervals.map(\.litres) == c.intervals.map(\.1))
        let economy = try #require(FuelEconomy.litresPer100km(intervals))
        #expect(abs(economy - c.lPer100) < 1e-9)
    }

    @Test func mixedCurrencyIntervalsDoNotCountForCostPerKm() throws {
        let garage = try FixtureGarage.garage()
        let golf = FuelEconomy.intervals(garage.activeFills(vehicle: "golf"))
        #expect(golf[0].spend == ["EUR": 30, "CHF": 40])
        let cost = FuelEconomy.costPerKm(golf)
        #expect(cost.keys.sorted() == ["EUR"])
        #expect(abs((cost["EUR"] ?? 0) - 100.5 / 1100) < 1e-12)
    }

    struct FillSequence: Sendable {
        var name: String
        /// (odometer, litres, full, missed)
        var fills: [(Double, Double, Bool, Bool)]
        var expected: [(Double, Double)]
    }

    static let sequences: [FillSequence] = [
        FillSequence(name: "partials before the first full fill measure nothing", fills: [(0, 10, false, false), (100, 20, true, false), (600, 30, true, false)], expected: [(500, 30)]),
        FillSequence(name: "two partials accumulate", fills: [(0, 40, true, false), (200, 10, false, false), (400, 12, false, false), (700, 20, true, false)], expected: [(700, 42)]),
        FillSequence(name: "a missed partial leaves no baseline until the next full", fills: [(0, 40, true, false), (300, 10, false, true), (500, 30, true, false), (900, 28, true, false)], expected: [(400, 28)]),
        FillSequence(name: "a fill at the same odometer makes no interval", fills: [(0, 40, true, false), (0, 2, true, false), (500, 30, true, false)], expected: [(500, 30)]),
        FillSequence(name: "no full fill, no economy", fills: [(0, 40, false, false), (500, 30, false, false)], expected: []),
    ]

    @Test(arguments: sequences) func fillSequences(_ s: FillSequence) throws {
        var seq: UInt64 = 0
        var entries: [RecordedEntry] = []
        for (i, f) in s.fills.enumerated() {
            let at = "2026-01-\(10 + i)T08:00:00Z"
            entries.append(try FixtureGarage.entry("fuel.add", FixtureGarage.fill("car", at, f.0, f.1, 1, "EUR", full: f.2, missed: f.3), seq: &seq))
        }
        let intervals = FuelEconomy.intervals(Garage(entries: entries).activeFills())
        #expect(intervals.map(\.distanceKm) == s.expected.map(\.0), "\(s.name)")
        #expect(intervals.map(\.litres) == s.expected.map(\.1), "\(s.name)")
    }

    @Test func mpg() {
        // 1 mpg is 100 L/100 km × 3.785411784 L/gal ÷ 1.609344 km/mi (the definitions, not a rounded factor).
        #expect(abs(FuelEconomy.mpgUS(litresPer100km: 100 * 3.785_411_784 / 1.609_344) - 1) < 1e-12)
        #expect(abs(FuelEconomy.mpgUS(litresPer100km: 5) - 47.0429) < 1e-3)
    }
}
