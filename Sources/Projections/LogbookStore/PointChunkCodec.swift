// SPDX-License-Identifier: MIT
internal import LogbookJournal

/// The BLOB of a point chunk: up to ``pointsPerChunk`` consecutive points of one trip,
/// delta-encoded as zigzag varints, closed by a CRC-32C.
///
/// ```
/// u8 format (1) · varint count · per point, of the journal's integers (the first point's
/// predecessor is all zeros):
///   time: the change of the time step (ΔΔ): varint zigzag(ΔΔms) << 1, or 1 then
///         varint zigzag(ΔΔns) when not whole milliseconds
///   latitude, longitude: the change of the step (ΔΔ: a car keeps its course), varint zigzag
///   altitude, speed, track, eph: varint zigzag(Δ)
/// u32 LE CRC-32C of everything before it
/// ```
/// A point at 1 Hz takes 7–10 bytes instead of the journal's 26; the CRC lets a reader tell a
/// damaged chunk from a valid one, so a damaged index is rebuilt rather than trusted.
enum PointChunkCodec {
    /// Points per chunk: ~2.5 KiB BLOBs, about 4 min of driving at 1 Hz.
    static let pointsPerChunk = 256
    static let format: UInt8 = 1

    static func encode(_ points: ArraySlice<StoredPoint>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(16 + points.count * 14)
        out.append(format)
        putVarint(UInt64(points.count), &out)
        var prev = StoredPoint(time: 0, latitude: 0, longitude: 0, speed: 0, track: 0, altitude: 0, eph: 0)
        var step = (time: Int64(0), latitude: Int64(0), longitude: Int64(0))
        for p in points {
            let dt = p.time &- prev.time, ddt = dt &- step.time
            if ddt % 1_000_000 == 0, abs(ddt / 1_000_000) < 1 << 61 {
                putVarint(zigzag(ddt / 1_000_000) << 1, &out)
            } else {
                putVarint(1, &out)
                putVarint(zigzag(ddt), &out)
            }
            let dLat = Int64(p.latitude) - Int64(prev.latitude), dLon = Int64(p.longitude) - Int64(prev.longitude)
            putVarint(zigzag(dLat - step.latitude), &out)
            putVarint(zigzag(dLon - step.longitude), &out)
            putVarint(zigzag(Int64(p.altitude) - Int64(prev.altitude)), &out)
            putVarint(zigzag(Int64(p.speed) - Int64(prev.speed)), &out)
            putVarint(zigzag(Int64(p.track) - Int64(prev.track)), &out)
            putVarint(zigzag(Int64(p.eph) - Int64(prev.eph)), &out)
            step = (dt, dLat, dLon)
            prev = p
        }
        let crc = out.withUnsafeBytes { CRC32C.update(0, $0) }
        withUnsafeBytes(of: crc.littleEndian) { out.append(contentsOf: $0) }
        return out
    }

    /// Decodes a chunk; throws ``TripIndexError/damaged(_:)`` for a bad CRC, format or length.
    static func decode(_ bytes: [UInt8]) throws(TripIndexError) -> [StoredPoint] {
        guard bytes.count >= 6 else { throw .damaged("a point chunk of \(bytes.count) bytes") }
        let body = bytes.count - 4
        let stored = UInt32(bytes[body]) | UInt32(bytes[body + 1]) << 8 | UInt32(bytes[body + 2]) << 16
            | UInt32(bytes[body + 3]) << 24
        let crc = bytes.withUnsafeBytes { CRC32C.update(0, UnsafeRawBufferPointer(rebasing: $0[0..<body])) }
        guard crc == stored, bytes[0] == format else { throw .damaged("a point chunk fails its CRC") }
        var i = 1
        func next() throws(TripIndexError) -> UInt64 {
            var v: UInt64 = 0
            var shift: UInt64 = 0
            while i < body {
                let b = bytes[i]
                i += 1
                v |= UInt64(b & 0x7F) << shift
                if b < 0x80 { return v }
                shift += 7
                if shift > 63 { break }
            }
            throw .damaged("a point chunk ends inside a number")
        }
        let count = Int(truncatingIfNeeded: try next())
        guard count >= 0, count <= pointsPerChunk else { throw .damaged("a point chunk claims \(count) points") }
        var out: [StoredPoint] = []
        out.reserveCapacity(count)
        var p = StoredPoint(time: 0, latitude: 0, longitude: 0, speed: 0, track: 0, altitude: 0, eph: 0)
        var step = (time: Int64(0), latitude: Int64(0), longitude: Int64(0))
        for _ in 0..<count {
            let t = try next()
            step.time &+= t & 1 == 1 ? unzigzag(try next()) : unzigzag(t >> 1) &* 1_000_000
            p.time &+= step.time
            step.latitude &+= unzigzag(try next())
            step.longitude &+= unzigzag(try next())
            p.latitude = Int32(truncatingIfNeeded: Int64(p.latitude) &+ step.latitude)
            p.longitude = Int32(truncatingIfNeeded: Int64(p.longitude) &+ step.longitude)
            p.altitude = Int32(truncatingIfNeeded: Int64(p.altitude) &+ unzigzag(try next()))
            p.speed = UInt16(truncatingIfNeeded: Int64(p.speed) &+ unzigzag(try next()))
            p.track = UInt16(truncatingIfNeeded: Int64(p.track) &+ unzigzag(try next()))
            p.eph = UInt16(truncatingIfNeeded: Int64(p.eph) &+ unzigzag(try next()))
            out.append(p)
        }
        guard i == body else { throw .damaged("a point chunk has trailing bytes") }
        return out
    }

    @inline(__always) static func zigzag(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }
    @inline(__always) static func unzigzag(_ v: UInt64) -> Int64 { Int64(bitPattern: v >> 1) ^ -Int64(bitPattern: v & 1) }

    @inline(__always) static func putVarint(_ value: UInt64, _ out: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }
}
