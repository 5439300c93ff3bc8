// SPDX-License-Identifier: MIT
import LogbookCore

/// The 26-byte fixed-width point: `time ns i64 · lat 1e-7° i32 · lon 1e-7° i32 ·
/// speed cm/s u16 · track 0.01° u16 · altitude dm i32 · eph cm u16`, the integers of
/// ``QuantisedPoint``.
///
/// Fixed width keeps a batch self-contained; compression belongs in the index.
enum PointCodec {
    static let size = 26

    static func encode(_ p: TripPoint, into w: inout ByteWriter) {
        let q = QuantisedPoint(p)
        w.i64(q.time)
        w.i32(q.latitude)
        w.i32(q.longitude)
        w.u16(q.speed)
        w.u16(q.track)
        w.i32(q.altitude)
        w.u16(q.eph)
    }

    static func decode(_ r: inout ByteReader) throws -> TripPoint {
        let time = try r.i64()
        let lat = try r.i32(), lon = try r.i32()
        let speed = try r.u16(), track = try r.u16()
        let alt = try r.i32()
        let eph = try r.u16()
        return QuantisedPoint(time: time, latitude: lat, longitude: lon, speed: speed, track: track, altitude: alt, eph: eph)
            .tripPoint
    }

    /// The point as it reads back (quantised): what tests compare against.
    static func quantised(_ p: TripPoint) -> TripPoint { QuantisedPoint(p).tripPoint }
}
