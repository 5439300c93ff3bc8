// SPDX-License-Identifier: MIT
/// A recorded point of a trip: what the journal stores for each accepted fix.
public struct TripPoint: Sendable, Hashable, Codable {
    public var time: GPSTime
    public var latitude: Double
    public var longitude: Double
    /// m/s
    public var speed: Double?
    /// degrees true
    public var track: Double?
    /// metres (MSL where known)
    public var altitude: Double?
    /// metres
    public var eph: Double?

    public init(
        time: GPSTime, latitude: Double, longitude: Double, speed: Double? = nil,
        track: Double? = nil, altitude: Double? = nil, eph: Double? = nil
    ) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.speed = speed
        self.track = track
        self.altitude = altitude
        self.eph = eph
    }

    /// The point recorded for a fix.
    public init(_ fix: Fix) {
        self.init(
            time: fix.time, latitude: fix.latitude, longitude: fix.longitude, speed: fix.speed,
            track: fix.track, altitude: fix.altitude, eph: fix.eph)
    }
}
