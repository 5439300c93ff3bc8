// SPDX-License-Identifier: MIT
public import LogbookCore

/// What an import writes, in order: for each trip a start, its points (in batches), the
/// stretches without positions, and its end. The journal side (the daemon over the control
/// socket, or the CLI holding the writer lock) turns these into records.
public enum ImportOutput: Sendable, Hashable {
    /// A trip begins: its vehicle, the reason (`import:gpx`…), the GPS time of its start.
    case tripStarted(vehicle: String?, reason: String, time: GPSTime?)
    /// Points of the trip begun last, in order.
    case points([TripPoint])
    /// A stretch without positions inside the trip (journaled as a `gps:no-fix` pair).
    case gap(TripGap)
    /// The trip ends.
    case tripEnded(ImportedTrip)
}

/// One trip an import found: where it is and what the trip engine made of it.
public struct ImportedTrip: Sendable, Hashable {
    /// 0-based position among the file's trips.
    public var index: Int
    public var vehicle: String?
    public var startReason: String
    /// Why it ended: `motion`, `gap`, or the import reason for a recorded trip's own end.
    public var endReason: String
    public var startedAt: GPSTime?
    public var endedAt: GPSTime?
    /// The engine's figures (m, s, m/s).
    public var distance: Double
    public var duration: Double
    public var maxSpeed: Double
    public var averageSpeed: Double
    public var points: Int
    /// Shorter than 50 m and 60 s: recorded as discarded, as live.
    public var discarded: Bool
    /// The lines of the file the trip's points came from.
    public var firstLine: Int
    public var lastLine: Int
}

/// What an import pass saw.
public struct ImportSummary: Sendable {
    public var format: ImportFormat
    /// SHA-256 of the file's content (hex): importing the same content twice is refused.
    public var contentHash = ""
    public var trips: [ImportedTrip] = []
    /// Positions read (accepted into the engine).
    public var positionsRead = 0
    /// Points the trips recorded (after the fix filter and one point per second).
    public var pointsRecorded: Int { trips.reduce(0) { $0 + $1.points } }
    /// Items that could not be imported (each named); fatal without `--skip-bad`.
    public var issues: [ImportIssue] = []
    /// Positions with the same time as the one before (dropped, not an error).
    public var duplicates = 0
    /// The fix filter's refusals by reason (poor accuracy, outliers…).
    public var refused: [FixRejectReason: Int] = [:]
    /// Bytes of the file.
    public var bytes: Int64 = 0

    public init(format: ImportFormat) { self.format = format }
}
