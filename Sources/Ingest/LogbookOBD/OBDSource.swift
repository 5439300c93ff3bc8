// SPDX-License-Identifier: MIT
internal import LogbookCore
public import Logging
internal import Synchronization

/// Talks to an ELM327 adapter on a thread of its own (`logbook-obd`) and reports what the car
/// says as ``OBDEvent``s.
///
/// Every read and write has a deadline, so an unplugged, hung or babbling adapter costs this
/// thread time and nobody else: it is closed and opened again with backoff (0.5 s doubling
/// to ``maximumBackoff``). A serial device that does not exist yet (a Bluetooth adapter before
/// pairing, a USB one unplugged) is waited for, not an error. The dialogue itself is
/// ``ELMSession``; this class only does the I/O and keeps the time.
public final class OBDSource: Sendable {
    /// Longest pause between connection attempts.
    public static let maximumBackoff: Duration = .seconds(5)

    public let name: String
    public let endpoint: OBDEndpoint
    public let plan: OBDPollingPlan
    private let logger: Logger
    private let stopRequested = Atomic<Bool>(false)
    private let lastBeat = Atomic<Int64>(0)

    /// - Parameters:
    ///   - name: the source's name (`obd:NAME`), for the log and the thread.
    ///   - plan: what to poll how often (tests shorten it).
    public init(name: String, endpoint: OBDEndpoint, plan: OBDPollingPlan = OBDPollingPlan(), logger: Logger) {
        self.name = name
        self.endpoint = endpoint
        self.plan = plan
        self.logger = logger
        lastBeat.store(monotonicNanoseconds(), ordering: .relaxed)
    }

    /// CLOCK_MONOTONIC (ns) of the thread's last turn (at least every 100 ms while it runs).
    public var lastHeartbeat: Int64 { lastBeat.load(ordering: .relaxed) }

    /// Starts the thread. `deliver` gets events in order, on that thread, and must not block.
    /// Returns false if the thread could not start.
    @discardableResult
    public func start(_ deliver: @escaping @Sendable ([OBDEvent]) -> Void) -> Bool {
        let started = OBDSystem.startThread(name: "logbook-obd") { [self] in run(deliver) }
        if !started { logger.critical("cannot start the OBD thread", metadata: ["source": "\(name)"]) }
        return started
    }

    /// Asks the thread to end: it closes the adapter within about 100 ms.
    public func stop() { stopRequested.store(true, ordering: .relaxed) }

    private var stopping: Bool { stopRequested.load(ordering: .relaxed) }

    private func run(_ deliver: @Sendable ([OBDEvent]) -> Void) {
        var backoff = 0.5
        var waitingLogged = false
        var downLogged = false
        var counters = OBDCounters()
        var rejectionLog = RejectionLog()
        while !stopping {
            beat()
            let link: ELMLink
            switch ELMLink.open(endpoint, timeout: plan.commandTimeout) {
            case .success(let l):
                link = l
            case .failure(.missing):
                if !waitingLogged {
                    logger.info("waiting for the OBD adapter to appear", metadata: ["source": "\(name)", "adapter": "\(endpoint)"])
                    waitingLogged = true
                }
                pause(1)
                continue
            case .failure(.failed(let why)):
                if !downLogged {
                    logger.warning("OBD adapter not reachable; retrying", metadata: ["source": "\(name)", "adapter": "\(endpoint)", "error": "\(why)"])
                    downLogged = true
                }
                pause(backoff)
                backoff = min(backoff * 2, Self.maximumBackoff.seconds)
                continue
            }
            waitingLogged = false
            downLogged = false
            counters.connections += 1
            logger.info("OBD adapter link open", metadata: ["source": "\(name)", "adapter": "\(endpoint)"])
            deliver([.linkUp("\(endpoint)"), .counters(counters)])
            let (reason, answered) = converse(link, &counters, &rejectionLog, deliver)
            link.close()
            if stopping { break }
            logger.warning("OBD adapter lost", metadata: ["source": "\(name)", "adapter": "\(endpoint)", "reason": "\(reason)"])
            deliver([.adapterLost(reason: reason)])
            if answered { backoff = 0.5 }
            pause(backoff)
            backoff = min(backoff * 2, Self.maximumBackoff.seconds)
        }
    }

    /// Runs one session on `link` until it breaks or a stop is asked; returns why it ended and
    /// whether the adapter ever answered.
    private func converse(
        _ link: ELMLink, _ total: inout OBDCounters, _ rejectionLog: inout RejectionLog,
        _ deliver: @Sendable ([OBDEvent]) -> Void
    ) -> (String, Bool) {
        var session = ELMSession(plan: plan)
        let base = total
        var answered = false
        while !stopping {
            beat()
            guard let (request, timeout) = session.nextRequest(at: now()) else {
                if let failure = session.failure { return (failure, answered) }
                let wait = session.nextWake.seconds(since: now())
                pause(min(max(wait, 0.01), 1))
                continue
            }
            switch link.exchange(request.command, timeout: timeout, stopping: { stopping }) {
            case .failure(let broken):
                return (broken.reason, answered)
            case .success(let exchange):
                if case .reply = exchange { answered = true }
                var events = session.handle(exchange, at: now())
                for (i, e) in events.enumerated() {
                    guard case .counters(let c) = e else { continue }
                    // The counters of every connection since start, not only this one.
                    total = c.plus(base, connections: total.connections)
                    events[i] = .counters(total)
                    logRejection(total, &rejectionLog)
                }
                if !events.isEmpty { deliver(events) }
            }
        }
        return ("stopped", answered)
    }

    /// When a refused reply was last logged, and how many since were not.
    struct RejectionLog {
        var at: Int64?
        var rejected = 0
        var held = 0
    }

    /// A refused reply is logged once a minute at most, with the number held back.
    private func logRejection(_ c: OBDCounters, _ log: inout RejectionLog) {
        guard c.rejected > log.rejected, let why = c.lastRejection else { return }
        let fresh = c.rejected - log.rejected
        log.rejected = c.rejected
        let t = monotonicNanoseconds()
        if let at = log.at, t - at < 60_000_000_000 {
            log.held += fresh
            return
        }
        logger.warning(
            "OBD reply refused", metadata: ["source": "\(name)", "why": "\(why.rawValue)", "refused": "\(c.rejected)", "suppressed": "\(log.held)"])
        log.at = t
        log.held = 0
    }

    private func beat() { lastBeat.store(monotonicNanoseconds(), ordering: .relaxed) }

    private func now() -> MonotonicInstant { MonotonicInstant(nanoseconds: UInt64(max(0, monotonicNanoseconds()))) }

    /// Sleeps `seconds` in slices so that a stop is honoured within 50 ms.
    private func pause(_ seconds: Double) {
        let end = monotonicNanoseconds() + Int64(seconds * 1e9)
        while !stopping, monotonicNanoseconds() < end {
            beat()
            OBDSystem.sleep(milliseconds: 50)
        }
    }
}

extension OBDCounters {
    /// These (one connection's) counts added to `base` (earlier connections').
    func plus(_ base: OBDCounters, connections: Int) -> OBDCounters {
        var c = self
        c.exchanges += base.exchanges
        c.timeouts += base.timeouts
        c.rejected += base.rejected
        c.busErrors += base.busErrors
        c.connections = connections
        if c.lastRejection == nil { c.lastRejection = base.lastRejection }
        return c
    }
}

extension Duration {
    fileprivate var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
