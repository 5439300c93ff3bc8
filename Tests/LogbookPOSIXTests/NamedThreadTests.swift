// SPDX-License-Identifier: MIT
import Foundation
import LogbookPOSIX
import Testing

/// Threads start with the name `ps -L` shows, and report when they could not start.
@Suite struct NamedThreadTests {
    /// The calling thread's name, as the kernel keeps it.
    private static func currentName() -> String {
        let text = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
        return text.trimmingCharacters(in: .newlines)
    }

    /// Starts a thread named `name` and waits (on a condition, not a sleep) for the name it saw.
    private func nameSeen(starting name: String) throws -> (String, Bool) {
        let seen = ConditionLock<(name: String, current: Bool)?>(nil)
        let box = ConditionLock<NamedThread?>(nil)
        let thread = try NamedThread.start(name: name) {
            let started = box.wait(until: { _ in .max }, ready: { $0 != nil }, then: { $0! })
            seen.signal { $0 = (Self.currentName(), started.isCurrent) }
        }
        box.signal { $0 = thread }
        let deadline = MonotonicClock.nanoseconds() + 30_000_000_000
        let result = seen.wait(until: { _ in deadline }, ready: { $0 != nil }, then: { $0 })
        let found = try #require(result, "the thread never reported")
        #expect(!thread.isCurrent, "the starting thread is not the new one")
        return found
    }

    @Test func theThreadCarriesItsName() throws {
        let (name, isCurrent) = try nameSeen(starting: "lb-test")
        #expect(name == "lb-test")
        #expect(isCurrent, "isCurrent is true on the thread itself")
    }

    @Test func longNamesAreCutToFifteenBytes() throws {
        let (name, _) = try nameSeen(starting: "lb-a-name-longer-than-fifteen")
        #expect(name == "lb-a-name-longe")
    }
}
