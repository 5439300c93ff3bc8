// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookTestSupport
import Testing

/// The one conversion from what people type in imperial mode to the journal's km and litres,
/// and back for what they read.
@Suite struct UnitConversionTests {
    @Test func typedImperialBecomesMetricToThreeDecimals() {
        for c in UnitInputCases.gallons { #expect(UnitSystem.imperial.litres(typed: DecimalInput.parse(c.typed) ?? .nan) == c.litres, "\(c)") }
        for c in UnitInputCases.miles { #expect(UnitSystem.imperial.kilometres(typed: DecimalInput.parse(c.typed) ?? .nan) == c.km, "\(c)") }
        #expect(UnitSystem.metric.litres(typed: 45.3) == 45.3 && UnitSystem.metric.kilometres(typed: 12_345.6) == 12_345.6)
    }

    @Test func journalFieldsConvertOnlyDistancesAndVolumes() {
        let typed: [(String, JSONValue)] = [("odometer_km", .number(10_000)), ("litres", .number(10)), ("price", .number(40)), ("tank_l", .number(15))]
        let metric = UnitSystem.imperial.journalFields(typed)
        #expect(metric.map(\.0) == typed.map(\.0))
        #expect(metric.map(\.1) == [.number(16_093.44), .number(37.854), .number(40), .number(56.781)])
        #expect(UnitSystem.metric.journalFields(typed).map(\.1) == typed.map(\.1))
    }

    @Test func shownInTheSystemsUnits() {
        #expect(UnitSystem.imperial.volumeText(37.854) == "10.00 gal" && UnitSystem.metric.volumeText(37.854) == "37.85 L")
        #expect(UnitSystem.imperial.odometerText(16_093.44) == "10000 mi" && UnitSystem.metric.odometerText(16_093.44) == "16093 km")
        #expect(abs(UnitSystem.mpgUS(litresPer100km: 5) - 47.043) < 1e-3)
        #expect(UnitSystem.imperial.perVolume(1) == UnitSystem.litresPerGallon && UnitSystem.imperial.perDistance(1) == 1.609_344)
        // The scanner the CLI test trusts finds a metric unit where there is one.
        #expect(UnitInputCases.metricLines("  fuel            30.07 L\n  economy  29.9 mpg") == ["  fuel            30.07 L"])
        #expect(UnitInputCases.metricLines("golf  0.0 mi  3  30.07 gal  116.00 USD  29.9 mpg").isEmpty)
    }
}
