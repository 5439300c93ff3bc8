// SPDX-License-Identifier: MIT
public import LogbookCore

/// A trip that had ended `recovered` or `shutdown` continues: the daemon restarted mid-drive
/// (a cranking brown-out rebooted the Pi) and its first fix was close to the trip's last point
/// in time and place. Points of trip `id` follow, and a new `trip ended` closes it; readers show
/// one trip whose figures are those of its last end record, with the stretch between `from`
/// and `gpsTime` as a gap (the daemon also records it as a `gps:no-fix` signal pair).
///
/// It repeats what a reader starting at this segment needs (vehicle, start, figures so far,
/// last point), so recovery never reads older segments.
public struct TripReopened: Sendable, Hashable {
    /// The trip continued.
    public var id: TripID
    /// Its vehicle, when known.
    public var vehicleID: String?
    /// Why the trip started (its own start record's reason).
    public var startReason: String
    /// GPS time of the trip's start.
    public var startTime: GPSTime?
    /// How its previous end record ended it: `recovered` or `shutdown`.
    public var previousEndReason: String
    /// GPS time of its last point before the gap.
    public var from: GPSTime?
    /// GPS time of the fix that continued it.
    public var gpsTime: GPSTime?
    /// Its figures up to the gap (as the previous end record had them).
    public var summary: TripSummary
    /// Its last point before the gap.
    public var lastPoint: TripPoint?
    /// `CLOCK_MONOTONIC` at the reopen, nanoseconds.
    public var monotonicNanoseconds: UInt64
    /// The kernel boot id of the boot that continued it.
    public var bootID: String

    /// Creates a trip-reopened record.
    public init(
        id: TripID, vehicleID: String?, startReason: String, startTime: GPSTime?, previousEndReason: String,
        from: GPSTime?, gpsTime: GPSTime?, summary: TripSummary, lastPoint: TripPoint?,
        monotonicNanoseconds: UInt64, bootID: String
    ) {
        self.id = id
        self.vehicleID = vehicleID
        self.startReason = startReason
        self.startTime = startTime
        self.previousEndReason = previousEndReason
        self.from = from
        self.gpsTime = gpsTime
        self.summary = summary
        self.lastPoint = lastPoint
        self.monotonicNanoseconds = monotonicNanoseconds
        self.bootID = bootID
    }
}
