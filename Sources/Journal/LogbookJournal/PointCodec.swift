// SPDX-License-Identifier: MIT
import LogbookCore

/// The 26-byte fixed-width point: `time ns i64 · lat 1e-7° i32 · lon 1e-7° i32 ·
/// speed cm/s u16 · track 0.01° u16 · altitude dm i32 · eph cm u16`.
///
/// Fixed width keeps a batch self-contained; compression belongs in the index. `nil` (and NaN)
/// is the all-ones / minimum sentinel of each field; values beyond a field's range are clamped.
enum PointCodec {
    static let size = 26
    static let noneU16 = UInt16.max
    static let noneI32 = Int32.min

    static func encode(_ p: TripPoint, into w: inout ByteWriter) {
        w.i64(p.time.nanoseconds)
        w.i32(scaledI32(p.latitude, 1e7))
        w.i32(scaledI32(p.longitude, 1e7))
        w.u16(scaledU16(p.speed, 100))
        w.u16(scaledU16(p.track, 100))
        w.i32(scaledI32(p.altitude, 10))
        w.u16(scaledU16(p.eph, 100))
    }

    static func decode(_ r: inout ByteReader) throws -> TripPoint {
        let time = try r.i64()
        let lat = try r.i32(), lon = try r.i32()
        let speed = try r.u16(), track = try r.u16()
        let alt = try r.i32()
        let eph = try r.u16()
        return TripPoint(
            time: GPSTime(nanoseconds: time),
            latitude: lat == noneI32 ? .nan : Double(lat) / 1e7,
            longitude: lon == noneI32 ? .nan : Double(lon) / 1e7,
            speed: speed == noneU16 ? nil : Double(speed) / 100,
            track: track == noneU16 ? nil : Double(track) / 100,
            altitude: alt == noneI32 ? nil : Double(alt) / 10,
            eph: eph == noneU16 ? nil : Double(eph) / 100)
    }

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

    /// The point as it reads back (quantised): what tests compare against.
    static func quantised(_ p: TripPoint) -> TripPoint {
        var w = ByteWriter(capacity: size)
        encode(p, into: &w)
        var r = ByteReader(w.bytes)
        return (try? decode(&r)) ?? p
    }
}
