// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookJournal
public import Logging
public import ServiceLifecycle
import Synchronization
internal import LogbookPOSIX
#if canImport(Glibc)
    import Glibc
#endif

/// One journal read at a time in the process: a read holds a whole segment (up to 4 MiB)
/// and its parsed records, so two sinks reading at once would double the peak memory.
enum JournalReadGate {
    private static let lock = Mutex(())

    static func serialized<R>(_ body: () throws -> R) rethrows -> R {
        try lock.withLock { _ in try body() }
    }
}

/// How a ``SinkRunner`` paces itself.
public struct RunnerSettings: Sendable {
    /// Seconds between looks at the journal when nothing is new.
    public var pollInterval: Double
    /// Points per batch (one MQTT round of acknowledgements, one PostgreSQL transaction).
    public var batchPoints: Int
    /// Backlog drain limit in points per second (0: unlimited).
    public var drainRate: Double
    /// Finish once the journal has been delivered completely (benchmarks, tests).
    public var exitWhenIdle: Bool
    /// Seconds between status reports.
    public var statusInterval: Double

    public init(pollInterval: Double = 1, batchPoints: Int = 1000, drainRate: Double = 0, exitWhenIdle: Bool = false,
                statusInterval: Double = 2) {
        self.pollInterval = pollInterval
        self.batchPoints = batchPoints
        self.drainRate = drainRate
        self.exitWhenIdle = exitWhenIdle
        self.statusInterval = statusInterval
    }
}

/// Moves the journal into one sink: read a batch after the cursor, deliver it, wait for the
/// acknowledgement, save the cursor (atomically, fsync'd), repeat — on a thread of its own.
///
/// After a crash or restart it resumes at the saved cursor; whatever was delivered after it
/// is delivered again, and the sinks are idempotent on `(device_id, seq)`.
public final class SinkRunner: Service, Sendable {
    let sink: any UplinkSink
    let journalDirectory: String
    let cursors: CursorStore
    let runtimeDirectory: String
    let device: DeviceIdentity
    let settings: RunnerSettings
    let logger: Logger

    public init(sink: any UplinkSink, journalDirectory: String, cursors: CursorStore, runtimeDirectory: String,
                device: DeviceIdentity, settings: RunnerSettings, logger: Logger) {
        self.sink = sink
        self.journalDirectory = journalDirectory
        self.cursors = cursors
        self.runtimeDirectory = runtimeDirectory
        self.device = device
        self.settings = settings
        self.logger = logger
    }

    public func run() async throws {
        let signal = WorkerSignal()
        try await withTaskCancellationHandler {
            try await withGracefulShutdownHandler {
                try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
                    do {
                        try NamedThread.start(name: "lb-up-\(sink.name)") { [self] in
                            do { try self.loop(signal); c.resume() } catch { c.resume(throwing: error) }
                        }
                    } catch { c.resume(throwing: UplinkError.system("\(error)")) }
                }
            } onGracefulShutdown: {
                signal.stop()
            }
        } onCancel: {
            signal.stop()
        }
    }

    /// The delivery loop (blocking; runs on the runner's own thread).
    func loop(_ signal: WorkerSignal) throws(UplinkError) {
        var cursor = loadCursor()
        sink.restore(cursor.state)
        var stream = JournalStream(directory: journalDirectory, after: cursor.position)
        var probe = JournalHeadProbe(directory: journalDirectory, after: cursor.position, pointTime: cursor.lastPointTime)
        var watch = JournalWatch(directory: journalDirectory)
        var limiter = RateLimiter(rate: settings.drainRate)
        var status = UplinkStatus(sink: sink.name, deviceID: device.id, pid: getpid())
        status.cursor = cursor.position.sequence
        status.cursorPointTime = cursor.lastPointTime
        var lastReport = -Double.infinity
        func report(force: Bool = false) {
            let now = MonotonicClock.seconds()
            guard force || now - lastReport >= settings.statusInterval else { return }
            // Not at the very start: the probe reads the journal after the cursor (a whole
            // backlog), and the first batch should not wait for it.
            if lastReport > -Double.infinity {
                do { try JournalReadGate.serialized { try probe.advance() } } catch { status.lastError = "journal: \(error)" }
            }
            lastReport = now
            status.journalSequence = max(probe.sequence, status.cursor)
            status.journalPointTime = probe.pointTime ?? status.cursorPointTime
            status.pendingSince = probe.firstPointTime
            status.connected = sink.isConnected
            if let e = sink.lastError, e != status.lastError {
                status.lastError = e
                status.lastErrorAt = WallClock.nanoseconds()
            }
            status.updatedAt = WallClock.nanoseconds()
            try? UplinkFile.write(Array((status.json.serialized + "\n").utf8),
                                  to: UplinkStatus.path(runtimeDirectory: runtimeDirectory, sink: sink.name), durable: false)
        }
        logger.info("uplink sink starting", metadata: [
            "sink": "\(sink.name)", "device": "\(device.id)", "cursor": "\(cursor.position.sequence)",
        ])
        while !signal.isStopped {
            report()
            guard sink.becomeReady() else {
                status.state = "connecting"
                signal.sleep(sink.retryDelay)
                continue
            }
            guard watch.changed() else {
                status.state = "idle"
                if settings.exitWhenIdle { break }
                signal.sleep(settings.pollInterval)
                continue
            }
            let items: [JournalItem]
            do { items = try JournalReadGate.serialized { try stream.read(maxPoints: settings.batchPoints) } } catch {
                fail(&status, "journal: \(error)")
                watch.reset()
                signal.sleep(settings.pollInterval)
                continue
            }
            if items.isEmpty {
                probe.catchUp(with: stream, pointTime: cursor.lastPointTime)
                status.state = "idle"
                if settings.exitWhenIdle { break }
                signal.sleep(settings.pollInterval)
                continue
            }
            watch.reset()  // more may follow right away (a backlog is read in batches)
            status.state = "delivering"
            do {
                try sink.deliver(items, signal: signal)
            } catch .stopped {
                break
            } catch {
                fail(&status, "\(error)")
                stream = JournalStream(directory: journalDirectory, after: cursor.position)
                signal.sleep(1)
                continue
            }
            let points = Self.pointCount(items)
            cursor.position = stream.position
            cursor.lastPointTime = Self.lastPointTime(items) ?? cursor.lastPointTime
            cursor.acknowledgedAt = WallClock.nanoseconds()
            cursor.state = sink.savedState()
            do { try cursors.save(cursor, sink: sink.name) } catch {
                // Not fatal: the batch is acknowledged, a stale cursor only means it is sent again.
                fail(&status, "cursor: \(error)")
            }
            status.cursor = cursor.position.sequence
            status.cursorPointTime = cursor.lastPointTime
            status.deliveredPoints += points
            let wait = limiter.take(max(points, 1), now: MonotonicClock.seconds())
            if wait > 0 { signal.sleep(wait) }
        }
        status.state = "stopped"
        report(force: true)
        logger.info("uplink sink stopped", metadata: ["sink": "\(sink.name)", "cursor": "\(cursor.position.sequence)"])
    }

    private func fail(_ status: inout UplinkStatus, _ message: String) {
        if status.lastError != message {
            logger.warning("uplink sink error", metadata: ["sink": "\(sink.name)", "error": "\(message)"])
        }
        status.lastError = message
        status.lastErrorAt = WallClock.nanoseconds()
    }

    private func loadCursor() -> SinkCursor {
        do {
            if let c = try cursors.load(sink: sink.name) {
                if c.deviceID == device.id { return c }
                logger.warning("cursor belongs to another device; starting from the beginning", metadata: [
                    "sink": "\(sink.name)", "cursor.device": "\(c.deviceID)", "device": "\(device.id)",
                ])
            }
        } catch {
            logger.warning("cursor unreadable; starting from the beginning", metadata: ["error": "\(error)"])
        }
        return SinkCursor(deviceID: device.id)
    }

    static func pointCount(_ items: [JournalItem]) -> Int {
        items.reduce(0) { n, item in
            if case .entry(let e) = item, case .points(_, let p) = e.record { return n + p.count }
            return n
        }
    }

    static func lastPointTime(_ items: [JournalItem]) -> GPSTime? {
        for item in items.reversed() {
            if case .entry(let e) = item, case .points(_, let p) = e.record, let t = p.last?.time { return t }
        }
        return nil
    }
}
