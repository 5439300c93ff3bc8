// SPDX-License-Identifier: MIT
public import LogbookCore

/// What the gpsd source reports to the pipeline.
public enum GPSDEvent: Sendable, Hashable {
    /// A session with gpsd is open and watching.
    case connected(HostPort)
    /// The session ended or could not be opened; the source retries on its own.
    case disconnected(reason: String)
    /// A new position fix (mode ≥ 2, lat/lon set and finite, not seen before).
    case fix(Fix)
    /// A TPV report without a usable position: the receiver has no fix.
    case noFix(mode: FixMode, time: GPSTime?)
}

/// Counters of what the source has seen since it started.
public struct GPSDStatistics: Sendable, Hashable {
    /// TPV reports read.
    public var reports: Int = 0
    /// Distinct fixes delivered.
    public var fixes: Int = 0
    /// TPV reports for an epoch already delivered (gpsd repeats TPVs).
    public var duplicates: Int = 0
    /// TPV reports with mode < 2.
    public var noFix: Int = 0
    /// TPV reports claiming a fix but without a finite position or time.
    public var invalid: Int = 0
    /// Successful connections (the first one included).
    public var connections: Int = 0

    public init() {}
}
