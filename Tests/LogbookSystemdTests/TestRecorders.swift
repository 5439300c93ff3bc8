// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import Logging
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
        let deadline = ContinuousClock.now + timeout
        while items.withLock({ $0.count }) < count, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        return all
    }
}

/// A swift-log handler that keeps the messages, so tests can check what was logged.
struct CapturingLogHandler: LogHandler {
    final class Store: Sendable {
        private let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        func append(_ s: String) { lines.withLock { $0.append(s) } }
        func contains(_ text: String) -> Bool { all.contains { $0.contains(text) } }
    }

    let store: Store
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let meta = (event.metadata ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        store.append("\(event.level): \(event.message) \(meta.joined(separator: " "))")
    }

    /// A logger writing into a fresh store.
    static func logger(_ label: String = "test") -> (Logger, Store) {
        let store = Store()
        return (Logger(label: label) { _ in CapturingLogHandler(store: store) }, store)
    }
}

/// Waits until `condition` holds or `timeout` passes; returns the final value.
func eventually(timeout: Duration = .seconds(5), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return true
}
