// SPDX-License-Identifier: MIT
internal import LogbookCore

/// A point as the journal quantises it (time ns, 1e-7°, cm/s, 0.01°, dm, cm), with the
/// journal's "none" sentinels. The index stores these integers, so a point read back from
/// the index is bit for bit the point the journal reader returns.
struct StoredPoint: Hashable, Sendable {
    static let noneI32 = Int32.min
    static let noneU16 = UInt16.max

    var time: Int64
    var latitude: Int32
    var longitude: Int32
    var speed: UInt16
    var track: UInt16
    var altitude: Int32
    var eph: UInt16

    init(time: Int64, latitude: Int32, longitude: Int32, speed: UInt16, track: UInt16, altitude: Int32, eph: UInt16) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.speed = speed
        self.track = track
        self.altitude = altitude
        self.eph = eph
    }

    /// Quantises `p` exactly as the journal's point codec does (a journal point maps back to
    /// the integers it was stored as).
    init(_ p: TripPoint) {
        time = p.time.nanoseconds
        latitude = Self.scaledI32(p.latitude, 1e7)
        longitude = Self.scaledI32(p.longitude, 1e7)
        speed = Self.scaledU16(p.speed, 100)
        track = Self.scaledU16(p.track, 100)
        altitude = Self.scaledI32(p.altitude, 10)
        eph = Self.scaledU16(p.eph, 100)
    }

    /// The point as the journal reader returns it.
    var tripPoint: TripPoint {
        TripPoint(
            time: GPSTime(nanoseconds: time),
            latitude: latitude == Self.noneI32 ? .nan : Double(latitude) / 1e7,
            longitude: longitude == Self.noneI32 ? .nan : Double(longitude) / 1e7,
            speed: speed == Self.noneU16 ? nil : Double(speed) / 100,
            track: track == Self.noneU16 ? nil : Double(track) / 100,
            altitude: altitude == Self.noneI32 ? nil : Double(altitude) / 10,
            eph: eph == Self.noneU16 ? nil : Double(eph) / 100)
    }

    /// Degrees, NaN when missing.
    var latitudeDegrees: Double { latitude == Self.noneI32 ? .nan : Double(latitude) / 1e7 }
    var longitudeDegrees: Double { longitude == Self.noneI32 ? .nan : Double(longitude) / 1e7 }
    /// m/s, nil when missing.
    var speedMetersPerSecond: Double? { speed == Self.noneU16 ? nil : Double(speed) / 100 }

    private static func scaledI32(_ v: Double?, _ scale: Double) -> Int32 {
        guard let v, v.isFinite else { return noneI32 }
        let s = (v * scale).rounded()
        return Int32(min(max(s, Double(Int32.min + 1)), Double(Int32.max)))
    }

    private static func scaledU16(_ v: Double?, _ scale: Double) -> UInt16 {
        guard let v, v.isFinite else { return noneU16 }
        let s = (v * scale).rounded()
        return UInt16(min(max(s, 0), Double(UInt16.max - 1)))
    }
}
