// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookGarage
import Testing

@Suite struct CalibrationTests {
    static let hour: Int64 = 3_600_000_000_000

    /// 40 trips of 5…43 km; a reading before every fourth trip from an odometer that reads
    /// `trueFactor` km per GPS km, rounded to whole km as a dashboard shows it when `rounded`.
    static func synthetic(trueFactor: Double, rounded: Bool) -> (OdometerCalibration, [OdometerCalibration.Leg], Double) {
        var legs: [OdometerCalibration.Leg] = []
        var anchors: [OdometerCalibration.Anchor] = []
        var odometer = 40_000.0
        for i in 0..<40 {
            let start = GPSTime(nanoseconds: Int64(i) * 10 * hour)
            if i % 4 == 0 { anchors.append(.init(at: GPSTime(nanoseconds: start.nanoseconds - hour), km: rounded ? odometer.rounded() : odometer)) }
            let km = Double(5 + (i * 7) % 39)
            legs.append(.init(start: start, km: km))
            odometer += km * trueFactor
        }
        anchors.append(.init(at: GPSTime(nanoseconds: 400 * hour), km: rounded ? odometer.rounded() : odometer))
        return (OdometerCalibration(anchors: anchors, legs: legs), legs, odometer)
    }

    @Test(arguments: [0.97, 1.0, 1.025, 1.06]) func exactReadingsGiveTheTrueFactor(_ trueFactor: Double) {
        let (c, legs, _) = Self.synthetic(trueFactor: trueFactor, rounded: false)
        #expect(c.stretches == 10)
        #expect(abs(c.factor - trueFactor) < 1e-12)
        #expect((c.uncertainty ?? 1) < 1e-9)
        // Trip 13 starts after 13 legs: 40000 + factor × their GPS km.
        let before = legs.prefix(13).reduce(0) { $0 + $1.km }
        #expect(abs((c.estimate(at: legs[13].start) ?? 0) - (40_000 + trueFactor * before)) < 1e-6)
    }

    @Test func roundedReadingsStayWithinTheirUncertainty() throws {
        let (c, _, _) = Self.synthetic(trueFactor: 1.025, rounded: true)
        let u = try #require(c.uncertainty)
        print("garage-calibration: true 1.025, estimated \(c.factor) ± \(u) from \(c.stretches) stretches")
        #expect(u > 0 && u < 0.01)
        #expect(abs(c.factor - 1.025) <= 3 * u)
    }

    /// A typo (5000 km too many) spoils the stretches on both sides of it; they are left out.
    @Test func anImplausibleReadingIsLeftOut() {
        let (exact, legs, _) = Self.synthetic(trueFactor: 1.02, rounded: false)
        var anchors = exact.readings
        anchors.append(.init(at: GPSTime(nanoseconds: 195 * Self.hour), km: (exact.estimate(at: GPSTime(nanoseconds: 195 * Self.hour)) ?? 0) + 5000))
        let c = OdometerCalibration(anchors: anchors, legs: legs)
        #expect(c.rejected == 1)  // the stretch up to it; the one after it goes backwards
        #expect(c.stretches == 9)
        #expect(abs(c.factor - 1.02) < 1e-12)
    }

    @Test func noReadingsNoEstimateOneReadingFactorOne() {
        #expect(OdometerCalibration(anchors: [], legs: [.init(start: GPSTime(nanoseconds: 0), km: 5)]).estimate(at: GPSTime(nanoseconds: 1)) == nil)
        let one = OdometerCalibration(anchors: [.init(at: GPSTime(nanoseconds: 10), km: 100)], legs: [.init(start: GPSTime(nanoseconds: 0), km: 5)])
        #expect(one.factor == 1 && one.uncertainty == nil)
        #expect(one.estimate(at: GPSTime(nanoseconds: 0)) == 95)  // before the reading: counted back
    }
}
