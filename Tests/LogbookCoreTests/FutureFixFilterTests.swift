// SPDX-License-Identifier: MIT
import LogbookCore
import Testing

/// Issue 28, item 6, in the pure filter: a fix dated ahead of the trusted time is refused and
/// counted, and the genuine fixes after it are accepted; garbage course and speed refused.
struct FutureFixFilterTests {
    static let base: Int64 = 1_850_000_000  // 2028

    /// A fix `seconds` after `base`, arriving at monotonic second `at` (1 Hz by default).
    func fix(_ seconds: Int64, lat: Double = 48.18, track: Double? = 90, speed: Double? = 5) -> Fix {
        Fix(time: GPSTime(seconds: Self.base + seconds), mode: .threeD, latitude: lat + Double(seconds % 10_000) * 0.00004,
            longitude: 11.56, speed: speed, track: track, eph: 5)
    }

    func at(_ second: Double) -> MonotonicInstant { MonotonicInstant(seconds: 1000 + second) }

    static let year: Int64 = 365 * 86_400
    static let in2100: Int64 = 4_102_444_800 - base

    @Test func aFutureFixIsRefusedAndTheNextGenuineOneAccepted() {
        var filter = FixFilter()
        for i in 0..<10 { #expect(filter.filter(fix(Int64(i)), at: at(Double(i))).fix != nil) }
        #expect(filter.filter(fix(10 + Self.year), at: at(10)) == .rejected(.futureTime))
        #expect(filter.filter(fix(11 + Self.in2100), at: at(11)) == .rejected(.futureTime))
        for i in 12..<30 {
            #expect(filter.filter(fix(Int64(i)), at: at(Double(i))).fix != nil, "genuine fix \(i)")
        }
        #expect(filter.counters[.futureTime] == 2)
        #expect(filter.counters[.timeWentBackwards] == 0)
        #expect(filter.counters.accepted == 28)
        #expect(filter.counters.rejected == 2)
    }

    @Test func theMarginIsConfigurableAndZeroTurnsItOff() {
        var config = FixFilterConfiguration()
        config.maxTimeAhead = 60
        var filter = FixFilter(configuration: config)
        _ = filter.filter(fix(0), at: at(0))
        // 50 s of fix time in 1 s of monotonic time: within 60 s.
        #expect(filter.filter(fix(50), at: at(1)).fix != nil)
        #expect(filter.filter(fix(200), at: at(2)) == .rejected(.futureTime))
        config.maxTimeAhead = 0
        var off = FixFilter(configuration: config)
        _ = off.filter(fix(0), at: at(0))
        #expect(off.filter(fix(Self.year), at: at(1)).fix != nil)
    }

    /// A stale reference (a first fix with an old date) must not lock out the receiver's
    /// corrected time: a run of future fixes that agree with each other resyncs.
    @Test func agreeingFutureFixesResyncWithoutAClock() {
        var filter = FixFilter()
        _ = filter.filter(fix(-Self.year), at: at(0))  // stale first fix
        #expect(filter.filter(fix(1), at: at(1)) == .rejected(.futureTime))
        #expect(filter.filter(fix(2), at: at(2)) == .rejected(.futureTime))
        #expect(filter.filter(fix(3), at: at(3)).fix != nil)
        #expect(filter.counters.resyncs == 1)
        #expect(filter.filter(fix(4), at: at(4)).fix != nil)
        // Future fixes that disagree with each other never resync.
        var other = FixFilter()
        _ = other.filter(fix(0), at: at(0))
        for (i, ahead) in [Self.year, 2 * Self.year, 3 * Self.year, 4 * Self.year].enumerated() {
            #expect(other.filter(fix(ahead), at: at(Double(i + 1))) == .rejected(.futureTime))
        }
        #expect(other.counters.resyncs == 0)
    }

    /// With a synchronised system clock even the first fix is judged, and the clock is not
    /// overruled by agreeing fixes.
    @Test func aSynchronisedClockJudgesTheFirstFix() {
        var filter = FixFilter()
        filter.trustSystemClock(GPSTime(seconds: Self.base), at: at(0))
        #expect(filter.filter(fix(Self.in2100), at: at(1)) == .rejected(.futureTime))
        for i in 2..<6 { #expect(filter.filter(fix(Self.year + Int64(i)), at: at(Double(i))) == .rejected(.futureTime)) }
        #expect(filter.counters.resyncs == 0)
        #expect(filter.filter(fix(6), at: at(6)).fix != nil)
        #expect(filter.trustedTime(at: at(7)) == GPSTime(seconds: Self.base + 7))
    }

    /// The reference survives a reconnect: the first fix after it is judged as well.
    @Test func theTimeReferenceSurvivesAReconnect() {
        var filter = FixFilter()
        _ = filter.filter(fix(0), at: at(0))
        filter.resetReference()
        #expect(filter.filter(fix(Self.in2100), at: at(5)) == .rejected(.futureTime))
        #expect(filter.filter(fix(6), at: at(6)).fix != nil)
    }

    @Test(arguments: [1e9, -1, 360.5, Double.infinity, -Double.infinity])
    func aCourseNoReceiverReportsIsRefused(_ track: Double) {
        var filter = FixFilter()
        #expect(filter.filter(fix(0, track: track), at: at(0)) == .rejected(.invalidMotion))
        #expect(filter.counters[.invalidMotion] == 1)
    }

    @Test func negativeOrInfiniteSpeedIsRefusedAndNotANumberCounted() {
        var filter = FixFilter()
        #expect(filter.filter(fix(0, speed: -3), at: at(0)) == .rejected(.invalidMotion))
        #expect(filter.filter(fix(1, speed: .infinity), at: at(1)) == .rejected(.invalidMotion))
        #expect(filter.filter(fix(2, lat: .nan), at: at(2)) == .rejected(.invalidCoordinate))
        var inf = fix(3)
        inf.longitude = .infinity
        #expect(filter.filter(inf, at: at(3)) == .rejected(.invalidCoordinate))
        #expect(filter.filter(fix(4, track: 360, speed: 0), at: at(4)).fix != nil)
        #expect(filter.counters.rejected == 4)
    }
}
