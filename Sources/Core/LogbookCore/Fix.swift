// SPDX-License-Identifier: MIT
/// How good a fix is, as gpsd's TPV `mode` reports it.
public enum FixMode: Int, Sendable, Hashable, Codable {
    case notSeen = 0
    case noFix = 1
    case twoD = 2
    case threeD = 3
}

/// One position report from the receiver, copied out of libgps into a plain value.
///
/// Optional fields are `nil` where gpsd reported NaN ("not available").
public struct Fix: Sendable, Hashable, Codable {
    /// Receiver UTC time of the fix.
    public var time: GPSTime
    public var mode: FixMode
    /// Degrees, WGS-84.
    public var latitude: Double
    public var longitude: Double
    /// Height above the ellipsoid and above mean sea level, metres.
    public var altitudeHAE: Double?
    public var altitudeMSL: Double?
    /// Speed over ground, m/s.
    public var speed: Double?
    /// Course over ground, degrees true.
    public var track: Double?
    /// Vertical speed, m/s.
    public var climb: Double?
    /// Estimated horizontal, vertical (m) and speed (m/s) errors, 95 %.
    public var eph: Double?
    public var epv: Double?
    public var eps: Double?
    /// Satellites used in the solution (from gpsd's SKY report; may lag the fix).
    public var satellitesUsed: Int?

    public init(
        time: GPSTime, mode: FixMode, latitude: Double, longitude: Double,
        altitudeHAE: Double? = nil, altitudeMSL: Double? = nil, speed: Double? = nil,
        track: Double? = nil, climb: Double? = nil, eph: Double? = nil, epv: Double? = nil,
        eps: Double? = nil, satellitesUsed: Int? = nil
    ) {
        self.time = time
        self.mode = mode
        self.latitude = latitude
        self.longitude = longitude
        self.altitudeHAE = altitudeHAE
        self.altitudeMSL = altitudeMSL
        self.speed = speed
        self.track = track
        self.climb = climb
        self.eph = eph
        self.epv = epv
        self.eps = eps
        self.satellitesUsed = satellitesUsed
    }

    /// The best altitude available: MSL if known, else HAE.
    public var altitude: Double? { altitudeMSL ?? altitudeHAE }
}
