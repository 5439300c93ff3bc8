// SPDX-License-Identifier: MIT
public import Logging
internal import Synchronization

/// The daemon's log level, shared by every logger so a config reload (SIGHUP) can change it
/// live: loggers are values that copied their handler, so the level must live behind a
/// reference they all read.
public final class LogLevelSwitch: Sendable {
    private let raw: Atomic<Int>

    /// - Parameter level: the level in force at start.
    public init(_ level: Logger.Level) { raw = Atomic(Self.index(level)) }

    /// The level in force.
    public var level: Logger.Level {
        get { Logger.Level.allCases[raw.load(ordering: .relaxed)] }
        set { raw.store(Self.index(newValue), ordering: .relaxed) }
    }

    private static func index(_ level: Logger.Level) -> Int { Logger.Level.allCases.firstIndex(of: level) ?? 2 }
}

/// Wraps a handler so its level is the shared ``LogLevelSwitch``'s; everything else is the
/// wrapped handler's. Setting `logLevel` on any logger sets it for all.
public struct SwitchableLevelLogHandler: LogHandler {
    private var inner: any LogHandler
    private let switchboard: LogLevelSwitch

    /// - Parameters:
    ///   - inner: the handler that writes (journald or stderr); it no longer filters by level.
    ///   - level: the shared level.
    public init(_ inner: any LogHandler, level: LogLevelSwitch) {
        var inner = inner
        inner.logLevel = .trace
        self.inner = inner
        self.switchboard = level
    }

    public var logLevel: Logger.Level {
        get { switchboard.level }
        set { switchboard.level = newValue }
    }

    public var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }

    public var metadataProvider: Logger.MetadataProvider? {
        get { inner.metadataProvider }
        set { inner.metadataProvider = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }

    public func log(event: LogEvent) { inner.log(event: event) }
}
