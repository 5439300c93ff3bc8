// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookJournal

/// Points as COPY's binary format (`COPY … FROM STDIN (FORMAT binary)`) for `points` or the
/// staging table: the server converts no text (no float or timestamp parsing), and the rows are
/// half the bytes of the text format.
struct PointColumns {
    var rows: [UInt8] = []
    var count = 0

    var isEmpty: Bool { count == 0 }

    let device: [UInt8]

    init(device: String) { self.device = Array(device.utf8) }

    /// Microseconds from the Unix epoch to PostgreSQL's (2000-01-01T00:00:00Z).
    private static let postgresEpochMicros: Int64 = 946_684_800_000_000

    mutating func append(_ s: UInt64, trip t: TripID, _ p: TripPoint) {
        if rows.isEmpty {
            rows.reserveCapacity(4096 * 100)
            // Signature, flags (no OIDs), header extension length.
            rows.append(contentsOf: Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00])
            Self.int32(0, &rows)
            Self.int32(0, &rows)
        }
        Self.int16(10, &rows)
        Self.int32(Int32(device.count), &rows)
        rows.append(contentsOf: device)
        Self.int64Field(Int64(bitPattern: s), &rows)
        Self.int64Field(Int64(bitPattern: t.rawValue), &rows)
        // The time to the microsecond (PostgreSQL's resolution), rounded half up from nanoseconds.
        let (q, r) = (p.time.nanoseconds + 500).quotientAndRemainder(dividingBy: 1000)
        Self.int64Field((r < 0 ? q - 1 : q) - Self.postgresEpochMicros, &rows)
        Self.double(p.latitude, &rows)
        Self.double(p.longitude, &rows)
        Self.float(p.speed, &rows)
        Self.float(p.track, &rows)
        Self.float(p.altitude, &rows)
        Self.float(p.eph, &rows)
        count += 1
    }

    /// The finished COPY data, the rows and the trailer, in the rows' own buffer (not a copy:
    /// half a megabyte per 5,000 points); the columns are empty after.
    private mutating func takeData() -> [UInt8] {
        var data: [UInt8] = []
        swap(&data, &rows)
        count = 0
        data.append(0xFF)
        data.append(0xFF)
        return data
    }

    // Big-endian bytes appended a value at a time (a byte at a time was a tenth of a drain's CPU).
    private static func int16(_ v: Int16, _ out: inout [UInt8]) {
        withUnsafeBytes(of: v.bigEndian) { out.append(contentsOf: $0) }
    }

    private static func int32(_ v: Int32, _ out: inout [UInt8]) {
        withUnsafeBytes(of: v.bigEndian) { out.append(contentsOf: $0) }
    }

    private static func int64Field(_ v: Int64, _ out: inout [UInt8]) {
        int32(8, &out)
        withUnsafeBytes(of: v.bigEndian) { out.append(contentsOf: $0) }
    }

    /// A `float8`; NULL when not measured (or not finite).
    private static func double(_ v: Double?, _ out: inout [UInt8]) {
        guard let v, v.isFinite else { return int32(-1, &out) }
        int64Field(Int64(bitPattern: v.bitPattern), &out)
    }

    /// A `real`; NULL when not measured (or not finite as a `real`).
    private static func float(_ v: Double?, _ out: inout [UInt8]) {
        guard let v, Float(v).isFinite else { return int32(-1, &out) }
        int32(4, &out)
        int32(Int32(bitPattern: Float(v).bitPattern), &out)
    }

    /// The COPY (and the insert from the staging table); `clear` empties the staging table
    /// for more in the same transaction.
    mutating func statements(device: String, clear: Bool, direct: Bool) -> [SQLStatement] {
        let data = takeData()
        let columns = "device_id, seq, trip_id, time, lat, lon, speed_mps, track_deg, altitude_m, eph_m"
        if direct {
            return [SQLStatement(sql: "COPY points (\(columns)) FROM STDIN (FORMAT binary)", parameters: [], copyData: data)]
        }
        let copy = [
            SQLStatement(sql: "COPY points_stage (d, s, tr, t, la, lo, sp, tk, al, ep) FROM STDIN (FORMAT binary)", parameters: [],
                         copyData: data),
            SQLStatement(sql: """
                INSERT INTO points (\(columns))
                SELECT d, s, tr, t, la, lo, sp, tk, al, ep FROM points_stage
                ON CONFLICT (device_id, seq) DO NOTHING
                """, parameters: []),
        ]
        return clear ? copy + [SQLStatement(sql: "DELETE FROM points_stage", parameters: [])] : copy
    }
}
