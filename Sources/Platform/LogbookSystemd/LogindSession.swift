// SPDX-License-Identifier: MIT
internal import CLogbookSystemd
internal import Logging
#if canImport(Glibc)
    internal import Glibc
#endif

/// The LogindInhibitor's state on its loop thread: the bus, the lock fd and the
/// prepare/release cycle. The sd-bus match callbacks receive this object as userdata.
final class LogindSession {
    struct Settings: Sendable {
        var endpoint: DBusEndpoint
        var what: String
        var who: String
        var why: String
        var releaseTimeout: Duration
        var retryInterval: Duration
    }

    private let settings: Settings
    private let logger: Logger
    private let lockHeld: AtomicFlag
    private let onPrepare: @Sendable (LogindInhibitor.Event) -> Void
    /// The inhibitor fd logind gave us; -1 when not held.
    private var lockFD: Int32 = -1
    /// Between `PrepareFor…(true)` and `(false)`: the handler ran; the lock is not retaken.
    private var preparing = false
    /// While logind waits for us: when the lock goes at the latest.
    private var releaseDeadline: ContinuousClock.Instant?
    private var nextAttempt = ContinuousClock.now
    private var lastError = ""

    init(
        settings: Settings, logger: Logger, lockHeld: AtomicFlag,
        onPrepare: @escaping @Sendable (LogindInhibitor.Event) -> Void
    ) {
        self.settings = settings
        self.logger = logger
        self.lockHeld = lockHeld
        self.onPrepare = onPrepare
    }

    deinit { closeLock("inhibitor stopped") }

    func run(control: LoopControl) {
        while !control.stopRequested {
            do {
                let connection = try SDBusConnection(settings.endpoint)
                try subscribe(connection)
                logger.debug("logind inhibitor connected")
                nextAttempt = .now
                let exit = connection.run(control: control, tick: { tick() }) { requests in
                    idle(connection, requests)
                }
                if case .disconnected(let why) = exit {
                    logger.warning("logind inhibitor: bus connection lost", metadata: ["error": "\(why)"])
                }
            } catch {
                note("\(error)")
            }
            // A lock from a broken connection may belong to a restarted logind: start over.
            closeLock("bus connection ended")
            releaseDeadline = nil
            guard !control.stopRequested else { break }
            var fds = [pollfd(fd: control.wakeFD, events: Int16(POLLIN), revents: 0)]
            _ = pollRetrying(&fds, timeoutMs: pollMilliseconds(settings.retryInterval))
        }
    }

    private func subscribe(_ connection: SDBusConnection) throws(SDBusError) {
        for member in ["PrepareForShutdown", "PrepareForSleep"] {
            try connection.addMatch(
                "type='signal',sender='org.freedesktop.login1',path='/org/freedesktop/login1',"
                    + "interface='org.freedesktop.login1.Manager',member='\(member)'",
                target: self
            ) { m, userdata, _ in
                guard let m, let userdata else { return 0 }
                let session = Unmanaged<LogindSession>.fromOpaque(userdata).takeUnretainedValue()
                let member = sd_bus_message_get_member(m).map { String(cString: $0) }
                guard let active = SDBusMessageReader.bool(m) else { return 0 }
                session.prepare(member == "PrepareForSleep" ? .sleep : .shutdown, active: active)
                return 0
            }
        }
    }

    private func prepare(_ event: LogindInhibitor.Event, active: Bool) {
        logger.info("logind: prepare for \(event.rawValue) \(active ? "started" : "over")")
        guard active else {
            // Cancelled or resumed: hold the lock again (idle() takes it).
            preparing = false
            releaseDeadline = nil
            nextAttempt = .now
            return
        }
        guard !preparing else { return }
        preparing = true
        // Without a lock (refused, bus trouble) the handler still runs: best effort.
        if lockFD >= 0 { releaseDeadline = .now + settings.releaseTimeout }
        onPrepare(event)
    }

    /// Between dispatches: release when asked or overdue, (re)take the lock when due.
    private func idle(_ connection: SDBusConnection, _ requests: LoopRequest) {
        let now = ContinuousClock.now
        if let deadline = releaseDeadline, requests.contains(.release) || now >= deadline {
            if !requests.contains(.release) { logger.warning("logind: handler did not release in time") }
            closeLock("released for logind")
            releaseDeadline = nil
        } else if requests.contains(.release), releaseDeadline == nil {
            logger.debug("logind: release ignored, nothing pending")
        }
        if lockFD < 0, !preparing, now >= nextAttempt { take(connection) }
    }

    private func tick() -> Duration? {
        let now = ContinuousClock.now
        if let deadline = releaseDeadline { return max(deadline - now, .milliseconds(1)) }
        if lockFD < 0, !preparing { return max(nextAttempt - now, .milliseconds(1)) }
        return nil
    }

    private func take(_ connection: SDBusConnection) {
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        let fd = csd_bus_login1_inhibit(
            connection.bus, settings.what, settings.who, settings.why, "delay", SDBusConnection.callTimeoutUsec, &error)
        guard fd >= 0 else {
            note("\(SDBusError("Inhibit(\(settings.what), delay)", code: fd, error: error))")
            nextAttempt = .now + settings.retryInterval
            return
        }
        lockFD = fd
        lockHeld.value = true
        lastError = ""
        logger.info("logind delay lock taken", metadata: ["what": "\(settings.what)"])
    }

    private func closeLock(_ why: String) {
        guard lockFD >= 0 else { return }
        close(lockFD)
        lockFD = -1
        lockHeld.value = false
        logger.info("logind delay lock closed: \(why)")
    }

    /// Logs a lasting failure once, not every retry.
    private func note(_ text: String) {
        if text != lastError { logger.warning("logind inhibitor: \(text); retrying") }
        lastError = text
    }
}
