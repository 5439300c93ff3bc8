// SPDX-License-Identifier: MIT
internal import CLogbookSystemd
internal import Dispatch
#if canImport(Glibc)
    internal import Glibc
#endif

/// Talks to the service manager through `sd_notify(3)`.
///
/// Every call is a no-op when `NOTIFY_SOCKET` is unset (not under systemd), so the daemon
/// calls it unconditionally. `sd_notify` is a blocking `sendmsg`: when the manager's
/// queue is full it waits. Messages therefore go out in order from a serial Dispatch
/// queue of their own, and callers on the concurrency pool never block.
public final class SystemdNotifier: Sendable {
    private let queue = DispatchQueue(label: "logbook.sd-notify")

    public init() {}

    /// Waits until every message sent so far has been handed to the manager.
    public func flush() { queue.sync {} }

    /// Sends `READY=1` (optionally with a status line).
    public func ready(status: String? = nil) {
        send("READY=1" + (status.map { "\nSTATUS=\(Self.clean($0))" } ?? ""))
    }

    /// Sends `RELOADING=1` with `MONOTONIC_USEC` (systemd ≥ 253 requires it for
    /// `Type=notify-reload`; 252 ignores it). Send ``ready(status:)`` when the reload is done.
    public func reloading(status: String? = nil) {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let usec = Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
        send("RELOADING=1\nMONOTONIC_USEC=\(usec)" + (status.map { "\nSTATUS=\(Self.clean($0))" } ?? ""))
    }

    /// Sends `STATUS=…`, the line `systemctl status` shows.
    public func status(_ text: String) { send("STATUS=\(Self.clean(text))") }

    /// Sends `WATCHDOG=1`.
    public func watchdog() { send("WATCHDOG=1") }

    /// Sends `STOPPING=1` (optionally with a status line).
    public func stopping(status: String? = nil) {
        send("STOPPING=1" + (status.map { "\nSTATUS=\(Self.clean($0))" } ?? ""))
    }

    /// Queues raw `KEY=VALUE` lines for the manager.
    public func send(_ state: String) {
        queue.async { _ = sd_notify(0, state) }
    }

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
