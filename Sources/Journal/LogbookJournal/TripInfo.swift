// SPDX-License-Identifier: MIT
public import LogbookCore

/// A trip as the journal records it.
public struct TripInfo: Sendable, Hashable {
    /// Open (no end record yet), closed, or closed but discarded as too short.
    public enum State: String, Sendable, Hashable {
        case open, closed, discarded
    }

    /// The trip's number.
    public var id: TripID
    /// The vehicle, when known.
    public var vehicleID: String?
    /// Why it started.
    public var startReason: String
    /// Why it ended (nil while open).
    public var endReason: String?
    /// GPS time at the start (else the first point's time).
    public var startTime: GPSTime?
    /// GPS time at the end (else the last point's time).
    public var endTime: GPSTime?
    /// Sequence number of the start record.
    public var startSequence: UInt64
    /// Sequence number of the end record (nil while open).
    public var endSequence: UInt64?
    /// The stored summary once ended; the journal's own running figures while open.
    public var summary: TripSummary
    /// Open, closed or discarded.
    public var state: State

    private var running: OpenTrip

    init(started s: TripStarted, sequence: UInt64) {
        id = s.id
        vehicleID = s.vehicleID
        startReason = s.reason
        startTime = s.gpsTime
        startSequence = sequence
        summary = .zero
        state = .open
        running = OpenTrip(id: s.id, startTime: s.gpsTime?.nanoseconds)
    }

    mutating func add(_ points: [TripPoint]) {
        guard state == .open else { return }
        for p in points { running.add(p) }
        if startTime == nil, let f = running.firstPointTime { startTime = GPSTime(nanoseconds: f) }
        endTime = running.lastPoint?.time
        summary = running.summary
    }

    /// An ended trip continues (``TripReopened``): open again, its figures running on.
    mutating func reopen(_ r: TripReopened) {
        guard state != .open else { return }
        state = .open
        endReason = nil
        endSequence = nil
        summary = r.summary
    }

    mutating func end(_ e: TripEnded, sequence: UInt64) {
        endReason = e.reason
        endTime = e.gpsTime ?? endTime
        endSequence = sequence
        summary = e.summary
        state = e.discarded ? .discarded : .closed
    }
}
