// SPDX-License-Identifier: MIT
import LogbookCore
import Testing

struct MonotonicInstantTests {
    @Test func arithmetic() {
        let t = MonotonicInstant(seconds: 10)
        #expect(t.nanoseconds == 10_000_000_000)
        #expect(t.advanced(bySeconds: 2.5).seconds == 12.5)
        #expect(t.advanced(bySeconds: -4).seconds == 6)
        #expect(t.advanced(bySeconds: -40) == .zero, "saturates at the origin")
        #expect(MonotonicInstant(nanoseconds: .max - 1).advanced(bySeconds: 1).nanoseconds == .max)
        #expect(t.seconds(since: MonotonicInstant(seconds: 12)) == -2)
        #expect(MonotonicInstant(seconds: 12).seconds(since: t) == 2)
        #expect(MonotonicInstant(seconds: .nan) == .zero)
        #expect(MonotonicInstant(seconds: -3) == .zero)
        #expect(t < t.advanced(bySeconds: 1e-9))
    }
}
