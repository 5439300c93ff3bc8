// SPDX-License-Identifier: MIT
@testable import LogbookPOSIX
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A monitor's loop thread: started once, woken by its eventfd, stopped from outside or from
/// inside.
@Suite struct EventLoopThreadTests {
    /// A loop that polls only its wake descriptor until stop is posted.
    private static func pollUntilStopped(_ control: LoopControl, requests: ConditionLock<LoopRequest>) {
        while !control.stopRequested {
            var fds = [pollfd(fd: control.wakeFD, events: Int16(POLLIN), revents: 0)]
            _ = poll(&fds, 1, -1)
            let taken = control.take()
            requests.signal { $0.formUnion(taken) }
        }
    }

    @Test func postedRequestsWakeTheLoopAndStopEndsIt() {
        let loop = EventLoopThread(name: "lb-test-loop")
        let requests = ConditionLock<LoopRequest>([])
        #expect(loop.start { Self.pollUntilStopped($0, requests: requests) })
        #expect(loop.isRunning)
        loop.post(.release)
        let deadline = MonotonicClock.nanoseconds() + 30_000_000_000
        #expect(requests.wait(until: { _ in deadline }, ready: { $0.contains(.release) }, then: { $0.contains(.release) }))
        #expect(loop.stop(timeout: .seconds(30)), "the loop ended within the timeout")
        #expect(!loop.isRunning)
    }

    @Test func aLoopThatDoesNotEndMakesStopReturnFalse() {
        let loop = EventLoopThread(name: "lb-test-stuck")
        let release = ConditionLock(false)
        #expect(loop.start { _ in release.wait(until: { _ in .max }, ready: { $0 }, then: { _ in }) })
        #expect(!loop.stop(timeout: .milliseconds(20)))
        release.signal { $0 = true }
    }

    @Test func stopFromTheLoopThreadOnlyAsks() {
        let loop = EventLoopThread(name: "lb-test-self")
        let result = ConditionLock<Bool?>(nil)
        #expect(loop.start { _ in result.signal { $0 = loop.stop(timeout: .seconds(60)) } })
        let deadline = MonotonicClock.nanoseconds() + 30_000_000_000
        #expect(result.wait(until: { _ in deadline }, ready: { $0 != nil }, then: { $0 }) == true)
    }
}
