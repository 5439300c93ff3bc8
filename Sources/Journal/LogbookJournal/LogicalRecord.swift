// SPDX-License-Identifier: MIT
import LogbookCore

/// Record kinds (first payload byte); readers reject kinds they do not know.
enum RecordKind: UInt8 {
    case segmentHeader = 0x01
    case seal = 0x02
    case checkpoint = 0x03
    case recovery = 0x04
    case points = 0x10
    case tripStarted = 0x20
    case tripEnded = 0x21
    case tripReopened = 0x22
    case signal = 0x30
    case entry = 0x40
}

/// A trip still open, as the writer tracks it: enough to close it after a crash.
struct OpenTrip: Sendable, Hashable {
    var id: TripID
    var startTime: Int64?
    var firstPointTime: Int64?
    var lastPoint: TripPoint?
    var pointCount: UInt64 = 0
    var distance: Double = 0
    var maxSpeed: Double = 0

    /// Folds one durable point into the running figures (cheap: O(1) per point).
    mutating func add(_ p: TripPoint) {
        if firstPointTime == nil { firstPointTime = p.time.nanoseconds }
        // The engine's WGS-84 distance, so a recovered trip's summary matches a live one.
        if let last = lastPoint {
            let step = Geodesy.distance(last, p)
            if step.isFinite { distance += step }
        }
        if let s = p.speed, s.isFinite { maxSpeed = max(maxSpeed, s) }
        lastPoint = p
        pointCount += 1
    }

    /// The summary of a trip closed at its last durable point.
    var summary: TripSummary {
        let start = startTime ?? firstPointTime
        var duration = 0.0
        if let start, let end = lastPoint?.time.nanoseconds { duration = max(0, Double(end - start) / 1e9) }
        return TripSummary(
            distance: distance, duration: duration, maxSpeed: maxSpeed,
            averageSpeed: duration > 0 ? distance / duration : 0, pointCount: Int(pointCount))
    }
}

/// The first record of every segment. It carries what recovery and `verify` need so that
/// neither has to read older segments: the chain head, the predecessor's last sequence,
/// the open trips and the public key.
struct SegmentHeader: Sendable, Hashable {
    var bootID: String
    var monotonicNanoseconds: UInt64
    /// Chain head after the predecessor's last counted record (the genesis hash for the first).
    var previousHead: [UInt8]
    /// Last sequence of the predecessor that counts (records beyond it there are ignored).
    var previousLastSequence: UInt64
    /// False only when the predecessor was abandoned after a write or fdatasync error: it may
    /// then end in a torn record, and records after `previousLastSequence` there are void.
    var previousSealed: Bool
    var nextTripID: UInt64
    var publicKey: [UInt8]
    var openTrips: [OpenTrip]
    /// Vehicles and named places (absent from headers written before they were carried).
    var carried = CarriedEntries()
}

/// A signed statement "the chain head after sequence `seq - 1` is `head`".
struct Checkpoint: Sendable, Hashable {
    var head: [UInt8]
    var gpsTime: Int64?
    var monotonicNanoseconds: UInt64
    var signature: [UInt8]
}

/// Every record as stored; ``JournalRecord`` is the public subset.
enum LogicalRecord: Sendable, Hashable {
    case header(SegmentHeader)
    case seal(recordCount: UInt64)
    case checkpoint(Checkpoint)
    case recovery(discardedBytes: UInt64, brokenFile: String, bootID: String)
    case user(JournalRecord)

    static let version: UInt8 = 1
}
