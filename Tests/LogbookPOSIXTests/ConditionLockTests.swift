// SPDX-License-Identifier: MIT
import LogbookPOSIX
import Testing

/// Waits end on a signal from another thread, or at their monotonic deadline.
@Suite struct ConditionLockTests {
    @Test func aSignalEndsTheWaitBeforeItsDeadline() throws {
        let lock = ConditionLock(0)
        try NamedThread.start(name: "lb-test-signal") { lock.signal { $0 = 42 } }
        let started = MonotonicClock.nanoseconds()
        let value = lock.wait(until: { _ in started + 60_000_000_000 }, ready: { $0 != 0 }, then: { $0 })
        #expect(value == 42)
        #expect(MonotonicClock.nanoseconds() - started < 60_000_000_000)
    }

    @Test func withoutASignalTheWaitEndsAtTheDeadline() {
        let lock = ConditionLock(false)
        let started = MonotonicClock.nanoseconds()
        let deadline = started + 50_000_000
        let ready = lock.wait(until: { _ in deadline }, ready: { $0 }, then: { $0 })
        #expect(!ready)
        #expect(MonotonicClock.nanoseconds() >= deadline, "it returned before its deadline")
    }

    @Test func thenRunsWithTheLockHeld() {
        let lock = ConditionLock([Int]())
        let count = lock.wait(until: { _ in 0 }, ready: { _ in true }, then: { list -> Int in
            list.append(1)
            return list.count
        })
        #expect(count == 1)
        #expect(lock.withLock { $0 } == [1])
    }
}
