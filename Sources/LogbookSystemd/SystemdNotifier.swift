// SPDX-License-Identifier: MIT
internal import CLogbookSystemd
#if canImport(Glibc)
    internal import Glibc
#endif

/// Talks to the service manager through `sd_notify(3)`.
///
/// Every call is a no-op returning false when `NOTIFY_SOCKET` is unset (not under systemd),
/// so the daemon calls it unconditionally.
public struct SystemdNotifier: Sendable {
    public init() {}

    /// Sends `READY=1` (optionally with a status line).
    @discardableResult
    public func ready(status: String? = nil) -> Bool {
        send("READY=1" + (status.map { "\nSTATUS=\(Self.clean($0))" } ?? ""))
    }

    /// Sends `STATUS=…`, the line `systemctl status` shows.
    @discardableResult
    public func status(_ text: String) -> Bool { send("STATUS=\(Self.clean(text))") }

    /// Sends `WATCHDOG=1`.
    @discardableResult
    public func watchdog() -> Bool { send("WATCHDOG=1") }

    /// Sends `STOPPING=1` (optionally with a status line).
    @discardableResult
    public func stopping(status: String? = nil) -> Bool {
        send("STOPPING=1" + (status.map { "\nSTATUS=\(Self.clean($0))" } ?? ""))
    }

    /// Sends raw `KEY=VALUE` lines; true when the manager received them.
    @discardableResult
    public func send(_ state: String) -> Bool { sd_notify(0, state) > 0 }

    /// The watchdog interval systemd expects pings within, or nil when the watchdog is off.
    public var watchdogInterval: Duration? {
        var usec: UInt64 = 0
        guard sd_watchdog_enabled(0, &usec) > 0, usec > 0 else { return nil }
        return .microseconds(Int64(usec))
    }

    /// True when stderr is connected to the journal (systemd sets `JOURNAL_STREAM`).
    public static var stderrIsJournal: Bool {
        guard let value = getenv("JOURNAL_STREAM").map({ String(cString: $0) }) else { return false }
        let parts = value.split(separator: ":")
        guard parts.count == 2, let dev = UInt64(parts[0]), let ino = UInt64(parts[1]) else { return false }
        var st = stat()
        guard fstat(STDERR_FILENO, &st) == 0 else { return false }
        return UInt64(st.st_dev) == dev && UInt64(st.st_ino) == ino
    }

    /// Status lines are single lines: newlines would start a new assignment.
    private static func clean(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
