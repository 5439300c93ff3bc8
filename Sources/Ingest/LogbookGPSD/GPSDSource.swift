// SPDX-License-Identifier: MIT
internal import CLogbookGPS
internal import LogbookPOSIX
public import LogbookCore
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
public final class GPSDSource: Sendable {
    /// Longest pause between reconnect attempts: a gpsd restart is survived within it.
    public static let maximumBackoff: Duration = .seconds(1)

    public let endpoint: HostPort
    private let logger: Logger
    private let stopRequested = Atomic<Bool>(false)
    private let lastBeat = Atomic<Int64>(0)
    private let counters = Mutex(GPSDStatistics())

    /// - Parameters:
    ///   - endpoint: gpsd's address.
    ///   - logger: where connection changes are logged.
    public init(endpoint: HostPort, logger: Logger) {
        self.endpoint = endpoint
        self.logger = logger
        lastBeat.store(Int64(MonotonicClock.nanoseconds()), ordering: .relaxed)
    }

    /// What the source has counted so far.
    public var statistics: GPSDStatistics { counters.withLock { $0 } }

    /// ``MonotonicClock`` nanoseconds of the reader loop's last turn; the watchdog checks it advances.
    public var lastHeartbeat: Int64 { lastBeat.load(ordering: .relaxed) }

    /// Asks the reader thread to end; ``run(_:)`` returns within about 0.5 s.
    public func stop() { stopRequested.store(true, ordering: .relaxed) }

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
                pause(backoff)
                backoff = min(backoff * 2, Self.maximumBackoff)
                continue
            }
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
        while !stopping {
            beat()
            // Wait for the first report of a burst (0.25 s at most, which bounds how long a
            // stop request waits for the thread), then let the rest of the burst arrive and
            // read it all: one wake-up per epoch or replayed burst, and libgps's recv takes
            // many reports at once, where waking for every report cost a select and a recv
            // each (a live fix is still handed over within the 20 ms window).
            guard gps_waiting(gps, 250_000) else { continue }
            usleep(Self.coalescingWindowMicroseconds)
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
                case .fix(let fix): batch.append(.fix(fix))
                case .invalid(let fix): batch.append(.invalidFix(fix))
                case .noFix(let mode, let time): batch.append(.noFix(mode: mode, time: time))
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

    /// Sleeps in short slices so a stop request is honoured within 50 ms.
    private func pause(_ duration: Duration) {
        let end = Int64(MonotonicClock.nanoseconds()) + Int64(duration.components.seconds) * 1_000_000_000
            + duration.components.attoseconds / 1_000_000_000
        while !stopping, Int64(MonotonicClock.nanoseconds()) < end {
            beat()
            usleep(50_000)
        }
    }

    private static let messageCapacity = 10_241
    private static let maximumBatch = 256
    private static let coalescingWindowMicroseconds: UInt32 = 20_000
}

@available(*, unavailable)
extension GPSDReaderState: Sendable {}
