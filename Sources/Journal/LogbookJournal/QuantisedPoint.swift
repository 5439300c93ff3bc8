// SPDX-License-Identifier: MIT
package import LogbookCore

/// A point as the journal stores it: time ns, 1e-7°, cm/s, 0.01°, dm, cm, each a fixed-width
/// integer, with the "none" sentinel of its width for a missing (or NaN) value; values beyond a
/// field's range are clamped.
///
/// The one quantisation of a point: ``PointCodec`` writes these integers, and the trip index
/// stores them (delta-encoded), so a point read back from the index is bit for bit the point
/// the journal reader returns.
package struct QuantisedPoint: Hashable, Sendable {
    /// The sentinel of a missing latitude, longitude or altitude.
    package static let noneI32 = Int32.min
    /// The sentinel of a missing speed, track or horizontal error.
    package static let noneU16 = UInt16.max

    package var time: Int64
    package var latitude: Int32
    package var longitude: Int32
    package var speed: UInt16
    package var track: UInt16
    package var altitude: Int32
    package var eph: UInt16

    package init(time: Int64, latitude: Int32, longitude: Int32, speed: UInt16, track: UInt16, altitude: Int32, eph: UInt16) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.speed = speed
        self.track = track
        self.altitude = altitude
        self.eph = eph
    }

    /// Quantises `p`.
    package init(_ p: TripPoint) {
        time = p.time.nanoseconds
        latitude = Self.scaledI32(p.latitude, 1e7)
        longitude = Self.scaledI32(p.longitude, 1e7)
        speed = Self.scaledU16(p.speed, 100)
        track = Self.scaledU16(p.track, 100)
        altitude = Self.scaledI32(p.altitude, 10)
        eph = Self.scaledU16(p.eph, 100)
    }

    /// The point as the journal reader returns it.
    package var tripPoint: TripPoint {
        TripPoint(
            time: GPSTime(nanoseconds: time), latitude: latitudeDegrees, longitude: longitudeDegrees,
            speed: speedMetersPerSecond, track: track == Self.noneU16 ? nil : Double(track) / 100,
            altitude: altitude == Self.noneI32 ? nil : Double(altitude) / 10,
            eph: eph == Self.noneU16 ? nil : Double(eph) / 100)
    }

    /// Degrees, NaN when missing.
    package var latitudeDegrees: Double { latitude == Self.noneI32 ? .nan : Double(latitude) / 1e7 }
    /// Degrees, NaN when missing.
    package var longitudeDegrees: Double { longitude == Self.noneI32 ? .nan : Double(longitude) / 1e7 }
    /// m/s, nil when missing.
    package var speedMetersPerSecond: Double? { speed == Self.noneU16 ? nil : Double(speed) / 100 }

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
