// SPDX-License-Identifier: MIT
/// How a ``JournalWriter`` is set up.
public struct JournalConfiguration: Sendable {
    /// The journal directory (`<state-dir>/journal`); created if missing.
    public var directory: String
    /// The state directory: holds `journal.key` (Ed25519 private key, 0600) and `journal.pub`.
    public var stateDirectory: String
    /// Group-commit interval: one `pwrite` + one `fdatasync` per interval. The daemon should
    /// offer 1–10 s (default 5 s); shorter values are accepted for tests, down to 1 ms.
    public var commitInterval: Duration
    /// Segment size cap and preallocation, bytes (default 4 MiB, at least 64 KiB).
    public var segmentSize: Int
    /// How often a signed checkpoint is written while records flow (also at each trip end
    /// and at seal).
    public var checkpointInterval: Duration
    /// Most bytes (estimated, as encoded) of records kept in memory while commits fail (a
    /// full disk): points beyond it are refused; trip, signal and entry records may use
    /// ``backlogReserveBytes`` more, so a trip buffered to the limit can still be closed.
    public var maximumBacklogBytes: Int
    /// Most points merged into one points record (≈ 26 KiB at 1,024). A bench knob: the
    /// journal generator sets 5 to write records like a daemon at 1 Hz with 5 s commits.
    package var maximumPointsPerRecord = 1024

    /// Room beyond ``maximumBacklogBytes`` for records other than points.
    public static let backlogReserveBytes = 64 << 10

    /// The ``maximumBacklogBytes`` that hold `points` points (26 bytes each as encoded, in
    /// records of up to 1,024, the default) and a few hundred signal and trip records besides.
    public static func backlogBytes(forPoints points: Int) -> Int {
        points * PointCodec.size + (points / 1024 + 1) * 32 + (32 << 10)
    }

    /// Creates a configuration with the design defaults (docs/architecture.md).
    public init(
        directory: String, stateDirectory: String, commitInterval: Duration = .seconds(5),
        segmentSize: Int = 4 << 20, checkpointInterval: Duration = .seconds(60),
        maximumBacklogBytes: Int = 16 << 20
    ) {
        self.directory = directory
        self.stateDirectory = stateDirectory
        self.commitInterval = commitInterval
        self.segmentSize = segmentSize
        self.checkpointInterval = checkpointInterval
        self.maximumBacklogBytes = maximumBacklogBytes
    }

    /// Throws ``JournalError/configuration(_:)`` for values out of range.
    func validate() throws {
        guard commitInterval >= .milliseconds(1), commitInterval <= .seconds(10) else {
            throw JournalError.configuration("commit interval must be within 1 ms … 10 s")
        }
        guard segmentSize >= 64 << 10, segmentSize <= 1 << 30 else {
            throw JournalError.configuration("segment size must be within 64 KiB … 1 GiB")
        }
        guard (1...4096).contains(maximumPointsPerRecord) else {
            throw JournalError.configuration("points per record must be within 1 … 4096")
        }
        guard checkpointInterval >= .milliseconds(1) else {
            throw JournalError.configuration("checkpoint interval must be positive")
        }
    }
}

/// Counters the daemon can show.
public struct JournalStatistics: Sendable, Hashable {
    /// `fdatasync` + directory `fsync` calls since open.
    public var syncs: Int
    /// Commits (group commits) that reached disk.
    public var commits: Int
    /// Bytes written since open.
    public var bytesWritten: Int
    /// Segments created since open.
    public var segmentsCreated: Int
    /// Signed checkpoints written since open.
    public var checkpoints: Int
    /// Highest durable sequence number.
    public var durableSequence: UInt64
    /// Records waiting for the next commit.
    public var pendingRecords: Int
    /// The last commit error, cleared by the next successful commit.
    public var lastError: String?
    /// True while commits fail because the file system is full (`ENOSPC`/`EDQUOT`): records
    /// wait in memory (up to ``JournalConfiguration/maximumBacklogBytes``) and are retried
    /// every commit interval.
    public var diskFull = false
    /// Estimated bytes of the records waiting in memory.
    public var pendingBytes = 0
    /// Points refused since open because the in-memory backlog was full.
    public var droppedPoints = 0
}
