// SPDX-License-Identifier: MIT
public import LogbookCore

/// A position read from a file, with where it was found.
public struct ImportPoint: Sendable, Hashable {
    public var time: GPSTime
    public var latitude: Double
    public var longitude: Double
    /// m/s, where the file has it.
    public var speed: Double?
    /// Degrees true.
    public var track: Double?
    /// Metres.
    public var altitude: Double?
    /// Horizontal accuracy, metres.
    public var eph: Double?
    /// The line the point starts on.
    public var line: Int

    public init(time: GPSTime, latitude: Double, longitude: Double, speed: Double? = nil, track: Double? = nil,
                altitude: Double? = nil, eph: Double? = nil, line: Int) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.speed = speed
        self.track = track
        self.altitude = altitude
        self.eph = eph
        self.line = line
    }

    /// The point as a receiver fix (3D when an altitude is known), for the fix filter.
    public var fix: Fix {
        Fix(time: time, mode: altitude == nil ? .twoD : .threeD, latitude: latitude, longitude: longitude,
            altitudeMSL: altitude, speed: speed, track: track, eph: eph)
    }
}

/// A trip a Logbook export marks as such (GPX `logbook:trip`, CSV `trip_id`): its recorded
/// boundaries are kept on import instead of being found again.
public struct RecordedTripMark: Sendable, Hashable {
    /// The trip number in the exporting logbook.
    public var id: String
    /// The vehicle the export names, if any.
    public var vehicle: String?

    public init(id: String, vehicle: String?) {
        self.id = id
        self.vehicle = vehicle
    }
}

/// What a reader found next in a file.
public enum ImportEvent: Sendable, Hashable {
    /// A position with a time.
    case point(ImportPoint)
    /// A new track begins; the mark when the file says it is a recorded trip.
    case track(RecordedTripMark?)
    /// An item that cannot be imported (no time, out of range…), with where and why.
    case bad(ImportIssue)
}

/// A parser of one file format, pulled one event at a time; memory does not grow with the
/// file (GeoJSON holds one feature at a time).
public protocol ImportReader {
    /// The next event, or nil at the end. Throws for a file that cannot be read on (syntax).
    mutating func next() throws(ImportIssue) -> ImportEvent?
    /// The input (for the hash and progress).
    var input: ByteInput { get }
}
