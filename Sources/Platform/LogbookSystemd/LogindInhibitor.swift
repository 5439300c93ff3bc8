// SPDX-License-Identifier: MIT
public import Logging
internal import LogbookPOSIX

/// Holds a logind "delay" inhibitor lock so the daemon can close the open trip before the
/// system shuts down or sleeps.
///
/// On its own OS thread it calls `org.freedesktop.login1.Manager.Inhibit(what, who, why,
/// "delay")` and keeps the returned fd open. When logind emits `PrepareForShutdown(true)` or
/// `PrepareForSleep(true)` it calls `onPrepare` (the daemon closes the trip) and closes the
/// fd — letting shutdown proceed — once the daemon calls ``release()``, or after
/// ``releaseTimeout`` at the latest. After `PrepareForShutdown(false)` / `PrepareForSleep(false)`
/// (shutdown cancelled, resumed) it takes the lock again.
///
/// Without polkitd, logind refuses the lock to callers lacking CAP_SYS_BOOT
/// (logind checks the org.freedesktop.login1.inhibit-delay-shutdown action); that is logged and retried every ``retryInterval``.
/// logind waits at most `InhibitDelayMaxSec` (default 5 s) for delay locks.
public final class LogindInhibitor: Sendable {
    /// What logind is about to do.
    public enum Event: String, Sendable, Hashable {
        case shutdown
        case sleep
    }

    /// The lock type, e.g. `shutdown:sleep`.
    public let what: String
    /// Who holds it (`logbookd`), shown by `systemd-inhibit --list`.
    public let who: String
    /// Why (`closing the trip`).
    public let why: String
    /// The bus logind is on.
    public let endpoint: DBusEndpoint
    /// How long the lock is kept after `onPrepare` when ``release()`` is not called.
    public let releaseTimeout: Duration
    /// Wait between attempts to connect or to take a refused lock.
    public let retryInterval: Duration

    private let logger: Logger
    private let onPrepare: @Sendable (Event) -> Void
    private let loop = EventLoopThread(name: "lb-inhibit")
    private let lockHeld = AtomicFlag()

    /// - Parameters:
    ///   - endpoint: `.system` (production) or a private bus address (tests).
    ///   - what, who, why: the `Inhibit` arguments; the mode is always `delay`.
    ///   - releaseTimeout: default 4 s, below logind's default `InhibitDelayMaxSec` of 5 s.
    ///   - retryInterval: default 30 s.
    ///   - logger: where lock changes and problems are logged.
    ///   - onPrepare: called on the inhibitor's thread when logind announces shutdown or sleep;
    ///     must return at once; call ``release()`` (from any thread) when the trip is closed.
    public init(
        endpoint: DBusEndpoint = .system, what: String = "shutdown:sleep", who: String = "logbookd",
        why: String = "closing the trip", releaseTimeout: Duration = .seconds(4),
        retryInterval: Duration = .seconds(30), logger: Logger,
        onPrepare: @escaping @Sendable (Event) -> Void
    ) {
        self.endpoint = endpoint
        self.what = what
        self.who = who
        self.why = why
        self.releaseTimeout = max(releaseTimeout, .zero)
        self.retryInterval = max(retryInterval, .milliseconds(10))
        self.logger = logger
        self.onPrepare = onPrepare
    }

    deinit { loop.stop(timeout: .zero) }

    /// True while the delay lock is held (its fd is open).
    public var holdsLock: Bool { lockHeld.value }

    /// Connects and takes the lock. Does nothing if already started.
    public func start() {
        let settings = LogindSession.Settings(
            endpoint: endpoint, what: what, who: who, why: why,
            releaseTimeout: releaseTimeout, retryInterval: retryInterval)
        let logger = logger
        let onPrepare = onPrepare
        let lockHeld = lockHeld
        let started = loop.start { control in
            let session = LogindSession(settings: settings, logger: logger, lockHeld: lockHeld, onPrepare: onPrepare)
            session.run(control: control)
        }
        if !started { logger.error("logind inhibitor: could not start its thread") }
    }

    /// Lets a pending shutdown or sleep proceed: closes the lock fd. Ignored when logind has
    /// not announced one.
    public func release() { loop.post(.release) }

    /// Closes the lock and disconnects; returns within about 0.5 s.
    public func stop() {
        if !loop.stop() { logger.warning("logind inhibitor: thread did not stop within 0.5 s") }
    }
}
