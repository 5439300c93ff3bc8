// SPDX-License-Identifier: MIT
import Foundation
import LogbookPOSIX
import Testing

@Suite struct ClockTests {
    @Test func theMonotonicClockNeverGoesBack() {
        var last = MonotonicClock.nanoseconds()
        for _ in 0..<10_000 {
            let now = MonotonicClock.nanoseconds()
            #expect(now >= last)
            last = now
        }
        #expect(abs(MonotonicClock.seconds() - Double(MonotonicClock.nanoseconds()) / 1e9) < 1)
    }

    @Test func theWallClockIsFoundationsDate() {
        #expect(abs(WallClock.seconds() - Date().timeIntervalSince1970) < 5)
        #expect(abs(Double(WallClock.nanoseconds()) / 1e9 - WallClock.seconds()) < 1)
    }
}
