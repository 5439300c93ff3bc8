// SPDX-License-Identifier: MIT
public import LogbookCore

/// The journal's most recent trip, as ``JournalReader/lastTrip(searchingSegments:)`` finds it.
public struct LastTrip: Sendable, Hashable {
    public var id: TripID
    public var vehicleID: String?
    public var startReason: String
    public var startTime: GPSTime?
    /// Its end record's reason and figures; nil while it is open.
    public var endReason: String?
    public var summary: TripSummary?
    /// Its last recorded point.
    public var lastPoint: TripPoint?
}

extension JournalReader {
    /// The most recent trip (by its last record), read from the newest segment backwards, at
    /// most `segments` of them: O(a segment or two) at each daemon start, whatever the history.
    /// Nil when those segments hold no trip, or not its start (a trip longer than them).
    public func lastTrip(searchingSegments segments: Int = 3) throws -> LastTrip? {
        let fs = PosixFileSystem()
        let names = SegmentName.segments(in: try fs.list(directory))
        for start in names.suffix(max(1, segments)).reversed() {
            var last: LastTrip?
            // Trip number whose start lies before `start`, seen in points or an end: read further back.
            var unknownLatest: TripID?
            try Self.walk(fs: fs, directory: directory, limit: limit ?? UInt64.max, startingAt: start) { _, _, record in
                guard case .user(let r) = record else { return true }
                switch r {
                case .tripStarted(let s):
                    last = LastTrip(id: s.id, vehicleID: s.vehicleID, startReason: s.reason, startTime: s.gpsTime)
                    unknownLatest = nil
                case .tripReopened(let t):
                    last = LastTrip(
                        id: t.id, vehicleID: t.vehicleID, startReason: t.startReason, startTime: t.startTime,
                        summary: t.summary, lastPoint: t.lastPoint)
                    unknownLatest = nil
                case .points(let id, let points):
                    if var l = last, l.id == id {
                        l.lastPoint = points.last ?? l.lastPoint
                        last = l
                    } else if last.map({ id > $0.id }) ?? true {
                        unknownLatest = id
                    }
                case .tripEnded(let e):
                    if last?.id == e.id {
                        last?.endReason = e.reason
                        last?.summary = e.summary
                    } else if last.map({ e.id > $0.id }) ?? true {
                        unknownLatest = e.id
                    }
                case .signal, .entry:
                    break
                }
                return true
            }
            if unknownLatest == nil, let last { return last }
        }
        return nil
    }
}

extension LastTrip {
    init(id: TripID, vehicleID: String?, startReason: String, startTime: GPSTime?, summary: TripSummary? = nil, lastPoint: TripPoint? = nil) {
        self.id = id
        self.vehicleID = vehicleID
        self.startReason = startReason
        self.startTime = startTime
        self.summary = summary
        self.lastPoint = lastPoint
    }
}
