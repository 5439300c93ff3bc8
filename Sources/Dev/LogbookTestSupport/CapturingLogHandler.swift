// SPDX-License-Identifier: MIT
public import Logging
import Synchronization

/// A swift-log handler that keeps every message as one line, `level: message key=value …`
/// (metadata sorted by key), so tests can check what was logged and wait for a line.
public struct CapturingLogHandler: LogHandler {
    /// The lines a handler (or several sharing it) captured.
    public final class Store: Sendable {
        private let lines = Mutex<[String]>([])

        public init() {}

        /// Every line so far, oldest first.
        public var all: [String] { lines.withLock { $0 } }

        /// Adds a line.
        public func append(_ line: String) { lines.withLock { $0.append(line) } }

        /// Whether any line contains `text`.
        public func contains(_ text: String) -> Bool { all.contains { $0.contains(text) } }

        /// How many lines contain `text`.
        public func count(_ text: String) -> Int { all.filter { $0.contains(text) }.count }
    }

    public let store: Store
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level

    /// A handler writing into `store`, passing messages at `level` and above.
    public init(store: Store, level: Logger.Level = .trace) {
        self.store = store
        self.logLevel = level
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let meta = merged.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        store.append("\(event.level): \(event.message)\(meta)")
    }

    /// A logger writing into a fresh store.
    public static func logger(_ label: String = "test", level: Logger.Level = .trace) -> (Logger, Store) {
        let store = Store()
        return (Logger(label: label) { _ in CapturingLogHandler(store: store, level: level) }, store)
    }
}
