// SPDX-License-Identifier: MIT
public import LogbookCore

/// One export format, fed a trip at a time and a point at a time, so that nothing but the
/// current chunk is ever held in memory. ``TripExport`` drives it.
public protocol TripTrackWriter {
    /// Writes the document's opening.
    mutating func begin(_ out: ExportOutput)
    /// Opens a trip; `gaps` are its recorded stretches without fix (where points split).
    mutating func beginTrip(_ trip: TripOverview, gaps: [TripGap], _ out: ExportOutput)
    /// Writes one point; `newSegment` is true for the trip's first point and the first point
    /// after a stretch without fix (a recorded gap), where a track is split.
    mutating func point(_ point: TripPoint, newSegment: Bool, _ out: ExportOutput)
    /// Closes the trip opened last.
    mutating func endTrip(_ out: ExportOutput)
    /// Writes the document's end.
    mutating func end(_ out: ExportOutput)
}

/// Says where a trip's points are split: before the first point recorded after each gap.
struct GapBreaks {
    private let gaps: [TripGap]
    private var next = 0
    private var previous: GPSTime?

    /// `gaps` in any order.
    init(_ gaps: [TripGap]) {
        self.gaps = gaps.sorted { $0.from < $1.from }
    }

    /// True when `point` starts a segment: the first point, or the first past a gap's end
    /// whose previous point came at or before the gap's start.
    mutating func startsSegment(_ point: TripPoint) -> Bool {
        defer { previous = point.time }
        guard let previous else { return true }
        var split = false
        while next < gaps.count, gaps[next].to <= point.time {
            if previous <= gaps[next].from { split = true }
            next += 1
        }
        return split
    }
}
