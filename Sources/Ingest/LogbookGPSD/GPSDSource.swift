// SPDX-License-Identifier: MIT
internal import CLogbookGPS
public import LogbookCore
internal import LogbookPOSIX
public import Logging
internal import Synchronization
#if canImport(Glibc)
    internal import Glibc
#endif

/// Streams fixes from gpsd through libgps on a dedicated thread.
///
/// libgps blocks in `pselect` and its session is not thread-safe, so the session lives
/// on one OS thread of its own, never on the Swift concurrency pool. The thread only
/// copies values out and hands them to `deliver`, which must not block: gpsd silently
/// drops data for a slow reader, so nothing here ever waits on disk.
///
/// A parked car's battery: the thread sleeps in `poll(2)` on gpsd's socket and a wake
/// eventfd (``stop()``) with no timeout, so it wakes for gpsd's reports (without a fix, every
/// ``noFixReadInterval`` for all that came, once ``slowAfterNoFix`` passed without one) and, while gpsd is absent, once per reconnect
/// attempt; reports without a fix are handed over only when they change the mode.
public final class GPSDSource: Sendable {
    /// Longest pause between reconnect attempts: a gpsd restart is survived within it.
    public static let maximumBackoff: Duration = .seconds(1)
    /// Once gpsd has been away this long, it is tried only every ``absentRetry`` (a parked
    /// car's battery: gpsd is not coming back soon).
    public static let absentAfter: Duration = .seconds(30)
    public static let absentRetry: Duration = .seconds(4)
    /// Without a fix the reader reads gpsd's reports this often, not as each arrives (they
    /// wait in the socket): a receiver without a fix reports twice a second, each report a
    /// wake-up. A fix is then seen at most this late; with one, every report is read at once.
    public static let noFixReadInterval: Duration = .seconds(4)
    /// How long without a fix before reading slows down (a tunnel's dropout reads on at once).
    public static let slowAfterNoFix: Duration = .seconds(30)
    /// Without a fix, reports are read once this many bytes wait, if before ``noFixReadInterval``.
    static let slowLowWater: Int32 = 16 << 10

    public let endpoint: HostPort
    private let logger: Logger
    private let stopRequested = Atomic<Bool>(false)
    private let lastBeat = Atomic<Int64>(0)
    private let counters = Mutex(GPSDStatistics())
    /// True while the thread waits in `poll(2)` for gpsd or for the next reconnect: it is
    /// alive, only idle (the watchdog counts it as turning).
    private let idle = Atomic<Bool>(false)
    /// Written by ``stop()`` to wake the thread's `poll(2)`.
    private let wakeFD: Int32

    /// - Parameters:
    ///   - endpoint: gpsd's address.
    ///   - logger: where connection changes are logged.
    public init(endpoint: HostPort, logger: Logger) {
        self.endpoint = endpoint
        self.logger = logger
        wakeFD = eventfd(0, Int32(EFD_CLOEXEC) | Int32(EFD_NONBLOCK))
        lastBeat.store(Int64(MonotonicClock.nanoseconds()), ordering: .relaxed)
    }

    deinit { if wakeFD >= 0 { close(wakeFD) } }

    /// What the source has counted so far.
    public var statistics: GPSDStatistics { counters.withLock { $0 } }

    /// ``MonotonicClock`` nanoseconds of the reader loop's last turn; the watchdog checks it advances.
    public var lastHeartbeat: Int64 { lastBeat.load(ordering: .relaxed) }

    /// Whether the reader loop turned within `nanoseconds` before `now`, or waits idle in
    /// `poll(2)` (for gpsd's next report or the next reconnect): the watchdog's question.
    public func isTurning(within nanoseconds: Int64, now: Int64) -> Bool {
        idle.load(ordering: .acquiring) || now - lastBeat.load(ordering: .relaxed) < nanoseconds
    }

    /// Asks the reader thread to end; ``run(_:)`` returns at once.
    public func stop() {
        stopRequested.store(true, ordering: .relaxed)
        var one: UInt64 = 1
        _ = write(wakeFD, &one, MemoryLayout<UInt64>.size)
    }

    /// Runs the reader thread until ``stop()`` is called or the calling task is cancelled.
    ///
    /// - Parameter deliver: called on the reader thread with events in order, batched: a
    ///   burst of reports already waiting on the socket goes out in one call, so a backlog
    ///   costs one hand-over rather than one per report. Must return at once.
    public func run(_ deliver: @escaping @Sendable ([GPSDEvent]) -> Void) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                do {
                    try NamedThread.start(name: "lb-gps") { [self] in
                        readLoop(deliver)
                        done.resume()
                    }
                } catch {
                    logger.critical("cannot start the gpsd reader thread", metadata: ["error": "\(error)"])
                    done.resume()
                }
            }
        } onCancel: {
            stopRequested.store(true, ordering: .relaxed)
        }
    }

    private var stopping: Bool { stopRequested.load(ordering: .relaxed) }

    private func beat() { lastBeat.store(Int64(MonotonicClock.nanoseconds()), ordering: .relaxed) }

    private func readLoop(_ deliverBatch: @escaping @Sendable ([GPSDEvent]) -> Void) {
        let deliver: (GPSDEvent) -> Void = { deliverBatch([$0]) }
        var session = GPSDReaderState()
        let message = UnsafeMutablePointer<CChar>.allocate(capacity: Self.messageCapacity)
        defer { message.deallocate() }
        var backoff: Duration = .milliseconds(250)
        var announcedDown = false
        var downSince: Int64?
        while !stopping {
            beat()
            let gps = UnsafeMutablePointer<gps_data_t>.allocate(capacity: 1)
            gps.initialize(to: gps_data_t())
            defer { gps.deallocate() }
            if let failure = open(gps) {
                if !announcedDown {
                    logger.warning("gpsd not reachable", metadata: ["gpsd": "\(endpoint)", "error": "\(failure)"])
                    deliver(.disconnected(reason: failure))
                    announcedDown = true
                }
                let since = downSince ?? Int64(MonotonicClock.nanoseconds())
                downSince = since
                let absent = Int64(MonotonicClock.nanoseconds()) - since >= Self.nanoseconds(Self.absentAfter)
                pause(absent ? Self.absentRetry : backoff)
                backoff = min(backoff * 2, Self.maximumBackoff)
                continue
            }
            downSince = nil
            counters.withLock { $0.connections += 1 }
            logger.info("connected to gpsd", metadata: ["gpsd": "\(endpoint)"])
            deliver(.connected(endpoint))
            announcedDown = false
            backoff = .milliseconds(250)
            let reason = pump(gps, message, &session, deliverBatch)
            gps_close(gps)
            if stopping { break }
            logger.warning("gpsd connection lost", metadata: ["gpsd": "\(endpoint)", "reason": "\(reason)"])
            deliver(.disconnected(reason: reason))
            announcedDown = true
            pause(.milliseconds(100))
        }
    }

    /// Opens and watches a session; returns a failure text or nil.
    private func open(_ gps: UnsafeMutablePointer<gps_data_t>) -> String? {
        errno = 0
        guard gps_open(endpoint.host, endpoint.port, gps) == 0 else {
            let code = errno
            return String(cString: cgps_error_text(code)) + " (\(code))"
        }
        guard cgps_stream_watch_json(gps) != -1 else {
            gps_close(gps)
            return "WATCH failed (errno \(errno))"
        }
        return nil
    }

    /// Reads reports until gpsd goes away or a stop is requested; returns why it ended.
    private func pump(
        _ gps: UnsafeMutablePointer<gps_data_t>, _ message: UnsafeMutablePointer<CChar>,
        _ state: inout GPSDReaderState, _ deliver: @Sendable ([GPSDEvent]) -> Void
    ) -> String {
        var batch: [GPSDEvent] = []
        defer { if !batch.isEmpty { deliver(batch) } }
        var noFix = NoFixThrottle()
        var lastFix: Int64?
        let fd = cgps_socket_fd(gps)
        while !stopping {
            beat()
            if lastFix.map({ Int64(MonotonicClock.nanoseconds()) - $0 >= Self.nanoseconds(Self.slowAfterNoFix) }) ?? true {
                // No fix for a while (parked, a receiver warming up; not a tunnel): let reports
                // gather in the socket, and read them when 16 KiB wait or after
                // ``noFixReadInterval`` (a flood, such as a replay, is still read at once).
                guard waitReadable(fd, timeout: Self.noFixReadInterval, lowWater: Self.slowLowWater) else { continue }
                guard gps_waiting(gps, 0) else { continue }
            } else {
                // Wait for the first report of a burst, let the rest of it arrive (20 ms) and
                // read it all: one wake-up per epoch or replayed burst, and libgps's recv takes
                // many reports at once (a live fix is still handed over within the 20 ms window).
                guard waitReadable(fd, timeout: nil, lowWater: 1) else { continue }
                usleep(Self.coalescingWindowMicroseconds)
            }
            repeat {
                beat()
                let n = cgps_read(gps, message, Int32(Self.messageCapacity))
                if n < 0 { return "gpsd closed the connection" }
                guard n > 0, cgps_message_is_tpv(message) != 0 else { continue }
                var raw = cgps_fix()
                cgps_copy_fix(gps, &raw)
                let outcome = state.classify(raw)
                counters.withLock { $0.record(outcome) }
                switch outcome {
                case .fix(let fix):
                    batch.append(.fix(fix))
                    lastFix = Int64(MonotonicClock.nanoseconds())
                    noFix.sawFix()
                case .noFix(let mode, let time):
                    if noFix.admit(mode: mode) { batch.append(.noFix(mode: mode, time: time)) }
                case .invalid(let fix): batch.append(.invalidFix(fix))
                case .duplicate: continue
                }
                if batch.count >= Self.maximumBatch {
                    deliver(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            } while !stopping && gps_waiting(gps, 0)
            if !batch.isEmpty {
                deliver(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        return "stopped"
    }

    /// Sleeps in `poll(2)` until `fd` holds `lowWater` bytes (`SO_RCVLOWAT`; a closed
    /// socket counts as readable: the read that follows sees the end) or `timeout` passes
    /// (true), or ``stop()`` wakes it (false). Leaves the low-water mark at 1 for libgps's reads.
    private func waitReadable(_ fd: Int32, timeout: Duration?, lowWater: Int32) -> Bool {
        var mark = lowWater
        if lowWater > 1 { _ = setsockopt(fd, SOL_SOCKET, SO_RCVLOWAT, &mark, socklen_t(MemoryLayout<Int32>.size)) }
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
        let ms = timeout.map { Int32(clamping: Self.nanoseconds($0) / 1_000_000) } ?? -1
        idle.store(true, ordering: .releasing)
        defer {
            idle.store(false, ordering: .releasing)
            if lowWater > 1 {
                var one: Int32 = 1
                _ = setsockopt(fd, SOL_SOCKET, SO_RCVLOWAT, &one, socklen_t(MemoryLayout<Int32>.size))
            }
        }
        while !stopping {
            let n = poll(&fds, 2, ms)
            if n < 0 && errno == EINTR { continue }
            return n >= 0 && fds[1].revents == 0 && !stopping
        }
        return false
    }

    /// Sleeps `duration` in one `poll(2)` on the wake eventfd (a stop ends it at once).
    private func pause(_ duration: Duration) {
        let ms = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        var fds = [pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
        idle.store(true, ordering: .releasing)
        defer {
            idle.store(false, ordering: .releasing)
            beat()
        }
        guard !stopping else { return }
        _ = poll(&fds, 1, Int32(clamping: max(1, ms)))
    }

    private static func nanoseconds(_ d: Duration) -> Int64 {
        d.components.seconds * 1_000_000_000 + d.components.attoseconds / 1_000_000_000
    }
    private static let messageCapacity = 10_241
    private static let maximumBatch = 256
    private static let coalescingWindowMicroseconds: UInt32 = 20_000
}

@available(*, unavailable)
extension GPSDReaderState: Sendable {}
