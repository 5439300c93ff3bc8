// SPDX-License-Identifier: MIT
public import LogbookCore
internal import LogbookPOSIX
public import Logging
#if canImport(Glibc)
    import Glibc
#endif

/// The single writer of a journal directory, with group commit.
///
/// ``append(_:)`` only assigns sequence numbers and buffers in memory, so the GPS reader never
/// waits on the disk. A dedicated OS thread commits every ``JournalConfiguration/commitInterval``
/// (one `pwrite` + one `fdatasync`), at once after a trip end, on ``sync()`` and on ``close()``.
/// A record is acknowledged (``durableSequence`` ≥ its sequence) only after its `fdatasync`.
///
/// ``open(_:logger:)`` runs recovery synchronously (O(active segment), tens of ms); call it
/// before serving. Always ``close()`` the writer: the writer thread keeps it alive until then.
public final class JournalWriter: Sendable {
    /// What recovery found when the journal was opened.
    public let recovery: RecoveryReport
    /// Vehicles and named places as the journal held them when it was opened (the entries
    /// appended since are the caller's to fold in).
    public let carriedAtOpen: CarriedEntries
    let configuration: JournalConfiguration
    let logger: Logger
    let state: ConditionLock<WriterState>
    let lock: WriterLock
    /// The commit interval's time (a test's driven clock, or the monotonic clock).
    let clock: any CommitClock

    struct WriterState {
        var nextSequence: UInt64
        var nextTripID: UInt64
        var pending: [(UInt64, JournalRecord)] = []
        var pendingBytes = 0
        var commitNow = false
        var closing = false
        var finished = false
        var durableSequence: UInt64
        var lastCommit: UInt64
        /// When the oldest pending record was appended (monotonic ns; the commit deadline).
        var pendingSince: UInt64 = 0
        var lastCheckpoint: UInt64
        var waiters: [(UInt64, CheckedContinuation<Void, any Error>)] = []
        var closeWaiters: [CheckedContinuation<Void, any Error>] = []
        var closeError: String?
        var statistics: JournalStatistics
        /// When commits started failing (monotonic ns), and when that was last logged.
        var failingSince: UInt64?
        var lastFailureLog: UInt64 = 0
    }

    private init(
        configuration: JournalConfiguration, logger: Logger, core: JournalCore, recovery: RecoveryReport, lock: WriterLock,
        clock: any CommitClock
    ) {
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
        self.recovery = recovery
        self.carriedAtOpen = core.carried
        self.lock = lock
        let now = clock.nanoseconds()
        // On a full disk recovery could not commit its `recovered` trip ends: they go first.
        let deferred = core.deferred
        let last = deferred.last.map { $0.0 &+ $0.1.sequenceCount &- 1 } ?? core.lastSequence
        var statistics = JournalStatistics(
            syncs: core.syncCount, commits: 0, bytesWritten: core.bytesWritten, segmentsCreated: core.segmentsCreated,
            checkpoints: core.checkpointsWritten, durableSequence: core.lastSequence, pendingRecords: 0,
            lastError: recovery.diskFull ? "no space left on the journal's file system" : nil)
        statistics.diskFull = recovery.diskFull
        state = ConditionLock(WriterState(
            nextSequence: last &+ 1, nextTripID: core.nextTripID, pending: deferred,
            pendingBytes: deferred.reduce(0) { $0 + Self.estimatedSize($1.1) }, durableSequence: core.lastSequence,
            lastCommit: now, lastCheckpoint: now, statistics: statistics))
    }

    /// Locks the directory, loads or creates the signing key, recovers the active segment,
    /// starts a new segment and the writer thread.
    ///
    /// - Throws: ``JournalError/locked(directory:pid:)`` when another writer holds the lock,
    ///   I/O and key errors otherwise.
    public static func open(_ configuration: JournalConfiguration, logger: Logger) throws -> JournalWriter {
        try open(configuration, logger: logger, fileSystem: PosixFileSystem())
    }

    /// ``open(_:logger:)`` on a given file system (tests inject I/O errors) and commit clock
    /// (tests drive the commit interval).
    static func open(
        _ configuration: JournalConfiguration, logger: Logger, fileSystem: any JournalFileSystem & Sendable,
        clock: any CommitClock = SystemCommitClock()
    ) throws -> JournalWriter {
        try configuration.validate()
        mkdir(configuration.stateDirectory, 0o755)
        mkdir(configuration.directory, 0o755)
        let lock = try WriterLock.acquire(directory: configuration.directory)
        do {
            let key = try JournalKey.loadOrCreate(stateDirectory: configuration.stateDirectory)
            let core = JournalCore(
                fs: fileSystem, directory: configuration.directory, segmentSize: configuration.segmentSize,
                key: key, bootID: bootID(), clock: MonotonicClock.nanoseconds)
            let start = MonotonicClock.nanoseconds()
            let report = try core.recover()
            let ms = Double(MonotonicClock.nanoseconds() - start) / 1e6
            logger.info(
                "journal recovered",
                metadata: [
                    "records": "\(report.records)", "last_seq": "\(report.lastSequence)",
                    "discarded_bytes": "\(report.bytesDiscarded)", "closed_trips": "\(report.closedTrips.count)",
                    "unclean": "\(report.wasUnclean)", "ms": "\(ms)",
                ])
            let writer = JournalWriter(configuration: configuration, logger: logger, core: core, recovery: report, lock: lock, clock: clock)
            clock.attach { [weak writer] in writer?.state.signal() }
            let confined = Confined(core)
            do {
                // Its own thread: the writer blocks in fdatasync, which must never happen on the
                // Swift concurrency pool.
                try NamedThread.start(name: "lb-journal") { [writer] in writer.run(confined.value) }
            } catch {
                throw JournalError.internalInconsistency("\(error)")
            }
            return writer
        } catch {
            lock.release()
            throw error
        }
    }

    /// Reserves the next trip number (increasing across restarts).
    public func nextTripID() -> TripID {
        state.withLock { s in
            defer { s.nextTripID += 1 }
            return TripID(s.nextTripID)
        }
    }

    /// Buffers `record` for the next group commit and returns its sequence number (of its last
    /// point for `.points`). Never waits on the disk. A trip end and a user entry trigger an
    /// immediate commit.
    ///
    /// - Throws: ``JournalError/closed`` after ``close()``; ``JournalError/backlogFull(lastError:)``
    ///   when commits keep failing and the in-memory backlog is full; ``JournalError/configuration(_:)``
    ///   for an entry whose fields exceed ``UserEntry/maximumFieldsBytes``.
    @discardableResult
    public func append(_ record: JournalRecord) throws -> UInt64 {
        if case .entry(let e) = record {
            let size = e.fields.serialized.utf8.count
            guard size <= UserEntry.maximumFieldsBytes else {
                throw JournalError.configuration("an entry's fields are limited to \(UserEntry.maximumFieldsBytes) bytes, got \(size)")
            }
        }
        var wake = false
        let seq: UInt64 = try state.withLock { s in
            guard !s.closing else { throw JournalError.closed }
            if case .points(_, let points) = record, points.isEmpty { return s.nextSequence &- 1 }
            let size = Self.estimatedSize(record)
            if let e = s.statistics.lastError {
                // Commits fail (a full disk): points up to the limit, the rest (trip ends,
                // signals, entries) within a reserve beyond it, so a trip can still close.
                var limit = configuration.maximumBacklogBytes
                if case .points(_, let points) = record {
                    if s.pendingBytes + size > limit { s.statistics.droppedPoints += points.count }
                } else {
                    limit += JournalConfiguration.backlogReserveBytes
                }
                if s.pendingBytes + size > limit { throw JournalError.backlogFull(lastError: e) }
            }
            let first = s.nextSequence
            s.nextSequence &+= record.sequenceCount
            if s.pending.isEmpty {
                // The writer sleeps without a deadline while nothing is pending: start its clock.
                s.pendingSince = clock.nanoseconds()
                wake = true
            }
            if case .points(let trip, let points) = record {
                // At most `maximumPointsPerRecord` points per record (≈ 26 KiB): records stay well
                // under a segment; consecutive appends of one trip merge up to that.
                let most = configuration.maximumPointsPerRecord
                var rest = points[...]
                var seq = first
                if let last = s.pending.last, case .points(let lastTrip, let lastPoints) = last.1, lastTrip == trip,
                    lastPoints.count < most
                {
                    let n = min(rest.count, most - lastPoints.count)
                    // A copy of exactly the new size, so a record held through a full disk
                    // carries no spare capacity (records are committed every few seconds
                    // otherwise, so the copy stays small).
                    s.pending[s.pending.count - 1].1 = .points(trip, lastPoints + rest.prefix(n))
                    // Counted as the commit will subtract it (estimatedSize of the merged
                    // record), or the count drifts up by a header per point and a long-running
                    // daemon would find its backlog "full" the moment the disk fills.
                    s.pendingBytes += n * PointCodec.size
                    rest = rest.dropFirst(n)
                    seq &+= UInt64(n)
                }
                while !rest.isEmpty {
                    let chunk = Array(rest.prefix(most))
                    s.pendingBytes += Self.estimatedSize(.points(trip, chunk))
                    s.pending.append((seq, .points(trip, chunk)))
                    rest = rest.dropFirst(chunk.count)
                    seq &+= UInt64(chunk.count)
                }
            } else {
                s.pendingBytes += size
                s.pending.append((first, record))
            }
            // A burst (a replay, a backlog) commits by size, not only by time, so what waits
            // in memory stays bounded; not while commits fail (then the interval paces retries).
            if s.pendingBytes >= commitBatchBytes && !s.commitNow && s.statistics.lastError == nil {
                s.commitNow = true
                wake = true
            }
            switch record {
            case .tripEnded:
                // A trip's end is committed now, not at the next group commit.
                s.commitNow = true
                wake = true
            case .entry(let e):
                // So is a person's entry (a fill-up, a classification: rare, and someone waits
                // for the answer).
                s.commitNow = true
                wake = true
                if let n = e.splitTripNumber { s.nextTripID = max(s.nextTripID, n &+ 1) }
            case .tripStarted(let t):
                s.nextTripID = max(s.nextTripID, t.id.rawValue &+ 1)
            default: break
            }
            return s.nextSequence &- 1
        }
        if wake { state.signal() }
        return seq
    }

    /// Commits everything appended so far now and returns when it is durable.
    public func sync() async throws {
        let target: UInt64 = state.withLock { s in
            if !s.pending.isEmpty { s.commitNow = true }
            return s.nextSequence &- 1
        }
        state.signal()
        try await waitDurable(target)
    }

    /// Returns once `sequence` is durable (its commit's `fdatasync` returned).
    ///
    /// - Throws: ``JournalError/commitFailed(_:)`` if the commit holding it failed (it will be
    ///   retried in a new segment; wait again to learn when it succeeds), or
    ///   ``JournalError/closed`` if the writer closed without making it durable.
    public func waitDurable(_ sequence: UInt64) async throws {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
            let immediate: Result<Void, any Error>? = state.withLock { s in
                if s.durableSequence >= sequence { return .success(()) }
                if s.finished { return .failure(JournalError.closed) }
                s.waiters.append((sequence, c))
                return nil
            }
            if let immediate { c.resume(with: immediate) }
        }
    }

    /// The highest sequence number known durable. Readers never go past it.
    public var durableSequence: UInt64 { state.withLock { $0.durableSequence } }

    /// Counters and the last error, for status displays.
    public var statistics: JournalStatistics {
        state.withLock { s in
            var st = s.statistics
            st.pendingRecords = s.pending.count
            st.pendingBytes = s.pendingBytes
            return st
        }
    }

    /// Final commit, checkpoint and seal, then releases the lock. Idempotent.
    public func close() async throws {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
            let done: Result<Void, any Error>? = state.withLock { s in
                if s.finished {
                    return s.closeError.map { .failure(JournalError.commitFailed($0)) } ?? .success(())
                }
                s.closing = true
                s.closeWaiters.append(c)
                return nil
            }
            if let done { c.resume(with: done) } else { state.signal() }
        }
    }

    static func estimatedSize(_ r: JournalRecord) -> Int {
        if case .points(_, let p) = r { return 32 + p.count * PointCodec.size }
        if case .entry(let e) = r { return 96 + e.fields.serialized.utf8.count }
        return 96
    }

    static func bootID() -> String {
        guard let raw = try? PosixFileSystem().read("/proc/sys/kernel/random/boot_id") else { return "" }
        return String(decoding: raw, as: UTF8.self).filter { !$0.isWhitespace }
    }
}

/// A non-Sendable value handed to exactly one thread (the writer's ``JournalCore``).
final class Confined<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
