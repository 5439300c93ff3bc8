// SPDX-License-Identifier: MIT
import LogbookCore
import Testing

/// Milliseconds on the test clock.
private func ms(_ n: UInt64) -> MonotonicInstant { MonotonicInstant(nanoseconds: n * 1_000_000) }

/// Drives a debouncer through (time ms, level) samples and then to `end`, collecting each
/// reported change with the time it was reported at (advancing in 1 ms steps between samples,
/// as a monitor polling often would).
private func run(
    _ d: inout IgnitionDebouncer, _ samples: [(UInt64, Bool)], until end: UInt64
) -> [(UInt64, Bool)] {
    var out: [(UInt64, Bool)] = []
    var now: UInt64 = samples.first?.0 ?? 0
    var i = 0
    while now <= end {
        while i < samples.count, samples[i].0 == now {
            if let s = d.feed(level: samples[i].1, at: ms(now)) { out.append((now, s)) }
            i += 1
        }
        if let s = d.advance(to: ms(now)) { out.append((now, s)) }
        now += 1
    }
    return out
}

private func flat(_ changes: [(UInt64, Bool)]) -> [String] { changes.map { "\($0.0):\($0.1 ? "on" : "off")" } }

struct IgnitionDebouncerTests {
    @Test func initialStateIsReportedOnlyAfterTheDebounceInterval() {
        var d = IgnitionDebouncer()
        #expect(d.state == nil)
        #expect(d.feed(level: true, at: ms(1000)) == nil, "not yet steady")
        #expect(d.state == nil)
        #expect(d.deadline == ms(1200))
        #expect(d.advance(to: ms(1199)) == nil)
        #expect(d.advance(to: ms(1200)) == true)
        #expect(d.state == true)
        #expect(d.deadline == nil, "nothing pending once stable")
        #expect(d.advance(to: ms(5000)) == nil, "reported once")
    }

    @Test func initialOffIsReportedToo() {
        var d = IgnitionDebouncer(debounce: .milliseconds(50))
        #expect(d.feed(level: false, at: ms(0)) == nil)
        #expect(d.advance(to: ms(50)) == false)
        #expect(d.state == false)
    }

    @Test func initialGlitchDelaysTheFirstReport() {
        var d = IgnitionDebouncer()
        let changes = run(&d, [(0, false), (100, true), (150, false)], until: 1000)
        #expect(flat(changes) == ["350:off"], "the 50 ms high blip restarts the interval")
    }

    @Test func bounceBurstOnSwitchOnYieldsOneOn() {
        var d = IgnitionDebouncer()
        // Off for a second, then 40 ms of contact bounce (edges every 2-7 ms) settling high.
        var samples: [(UInt64, Bool)] = [(0, false)]
        var t: UInt64 = 1000
        var level = true
        for step in [3, 2, 7, 4, 5, 2, 6, 3, 4, 4] as [UInt64] {
            samples.append((t, level))
            level.toggle()
            t += step
        }
        samples.append((t, true))
        let changes = run(&d, samples, until: 3000)
        #expect(flat(changes) == ["200:off", "\(t + 200):on"])
    }

    @Test func bounceBurstOnSwitchOffYieldsOneOff() {
        var d = IgnitionDebouncer(debounce: .milliseconds(100))
        let samples: [(UInt64, Bool)] = [
            (0, true), (500, false), (501, true), (503, false), (510, true), (512, false),
        ]
        #expect(flat(run(&d, samples, until: 2000)) == ["100:on", "612:off"])
    }

    @Test func glitchesShorterThanTheIntervalAreIgnored() {
        var d = IgnitionDebouncer()
        let samples: [(UInt64, Bool)] = [
            (0, true),
            (1000, false), (1199, true),  // 199 ms dropout: ignored
            (2000, false), (2001, true),  // 1 ms spike
            (3000, false), (3150, true),
        ]
        #expect(flat(run(&d, samples, until: 5000)) == ["200:on"])
        #expect(d.state == true)
    }

    @Test func aDropoutOfExactlyTheIntervalCounts() {
        var d = IgnitionDebouncer()
        let samples: [(UInt64, Bool)] = [(0, true), (1000, false), (1200, true)]
        #expect(flat(run(&d, samples, until: 2000)) == ["200:on", "1200:off", "1400:on"])
    }

    @Test func longPressesAreEachReportedOnce() {
        var d = IgnitionDebouncer()
        let samples: [(UInt64, Bool)] = [(0, false), (1000, true), (60_000, false), (61_000, true)]
        #expect(flat(run(&d, samples, until: 62_000)) == ["200:off", "1200:on", "60200:off", "61200:on"])
    }

    @Test func repeatedSamplesOfTheSameLevelDoNotRestartTheInterval() {
        var d = IgnitionDebouncer()
        #expect(d.feed(level: true, at: ms(0)) == nil)
        #expect(d.feed(level: true, at: ms(100)) == nil)
        #expect(d.feed(level: true, at: ms(199)) == nil)
        #expect(d.feed(level: true, at: ms(200)) == true, "steady since 0 ms")
    }

    @Test func aLateEdgeSettlesTheLevelThatHeldBeforeIt() {
        // No advance() between edges (a monitor that only wakes on events): the high that held
        // 0…500 ms must still count when the falling edge arrives.
        var d = IgnitionDebouncer()
        #expect(d.feed(level: true, at: ms(0)) == nil)
        #expect(d.feed(level: false, at: ms(500)) == true)
        #expect(d.state == true)
        #expect(d.deadline == ms(700))
        #expect(d.advance(to: ms(700)) == false)
    }

    @Test func activeLowInvertsTheLevel() {
        var d = IgnitionDebouncer(activeLow: true)
        #expect(d.logical(false) == true)
        let samples: [(UInt64, Bool)] = [(0, true), (1000, false), (1050, true), (1060, false), (3000, true)]
        #expect(flat(run(&d, samples, until: 4000)) == ["200:off", "1260:on", "3200:off"])
    }

    @Test func activeHighIsTheDefault() {
        let d = IgnitionDebouncer()
        #expect(d.activeLow == false)
        #expect(d.debounce == .milliseconds(200))
        #expect(d.logical(true) == true)
        #expect(d.logical(false) == false)
    }

    @Test func zeroDebounceReportsEveryChangeAtOnce() {
        var d = IgnitionDebouncer(debounce: .zero)
        #expect(d.feed(level: true, at: ms(0)) == true)
        #expect(d.feed(level: false, at: ms(1)) == false)
        #expect(d.feed(level: false, at: ms(2)) == nil)
        #expect(d.feed(level: true, at: ms(2)) == true)
        #expect(IgnitionDebouncer(debounce: .milliseconds(-5)).debounce == .zero)
    }

    @Test func timestampsGoingBackwardsDoNotShortenTheInterval() {
        var d = IgnitionDebouncer()
        #expect(d.feed(level: true, at: ms(1000)) == nil)
        #expect(d.feed(level: false, at: ms(900)) == nil, "a stale stamp counts from the last one")
        #expect(d.advance(to: ms(1100)) == nil)
        #expect(d.advance(to: ms(1200)) == false)
    }

    @Test func resetForgetsTheState() {
        var d = IgnitionDebouncer()
        _ = d.feed(level: true, at: ms(0))
        #expect(d.advance(to: ms(200)) == true)
        d.reset()
        #expect(d.state == nil)
        #expect(d.rawLevel == nil)
        #expect(d.deadline == nil)
        #expect(d.feed(level: true, at: ms(1000)) == nil)
        #expect(d.advance(to: ms(1200)) == true, "the same level is reported again after a reset")
    }
}
