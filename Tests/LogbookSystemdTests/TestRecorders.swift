// SPDX-License-Identifier: MIT
import Foundation
import LogbookTestSupport
import LogbookCore
import Synchronization

/// Collects what a monitor reports; `wait` polls until enough arrived.
final class Recorder<Value: Sendable>: Sendable {
    private let items = Mutex<[Value]>([])

    var all: [Value] { items.withLock { $0 } }

    /// The callback to hand to a monitor: appends and returns at once.
    var callback: @Sendable (Value) -> Void { { value in self.items.withLock { $0.append(value) } } }

    /// Waits until at least `count` values arrived (or `timeout`); returns them all.
    @discardableResult
    func wait(count: Int, timeout: Duration = .seconds(5)) async -> [Value] {
        var deadline = TestDeadline(timeout)
        while items.withLock({ $0.count }) < count, !deadline.passed {
            await deadline.sleep(for: .milliseconds(10))
        }
        return all
    }
}
