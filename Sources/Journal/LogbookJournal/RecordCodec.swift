// SPDX-License-Identifier: MIT
import LogbookCore

/// Logical payload: `kind u8 · version u8 · seq u64 · body`. Bodies are little-endian,
/// strings u16-length-prefixed UTF-8, optional GPS times `Int64.min` for none.
enum RecordCodec {
    static func encode(_ record: LogicalRecord, sequence: UInt64) -> [UInt8] {
        var w = ByteWriter(capacity: 64)
        func start(_ k: RecordKind) {
            w.u8(k.rawValue)
            w.u8(LogicalRecord.version)
            w.u64(sequence)
        }
        switch record {
        case .header(let h):
            start(.segmentHeader)
            w.string(h.bootID)
            w.u64(h.monotonicNanoseconds)
            w.raw(h.previousHead)
            w.u64(h.previousLastSequence)
            w.bool(h.previousSealed)
            w.u64(h.nextTripID)
            w.raw(h.publicKey)
            w.u16(UInt16(min(h.openTrips.count, Int(UInt16.max))))
            for t in h.openTrips.prefix(Int(UInt16.max)) { encodeOpenTrip(t, into: &w) }
            let carried = h.carried.all.prefix(Int(UInt16.max))
            w.u16(UInt16(carried.count))
            for item in carried {
                w.string(item.type)
                w.string(item.subject)
                w.bool(item.voided)
                for fields in [item.fields, item.configFields ?? .null] {
                    let json = Array(fields.serialized.utf8)
                    w.u32(UInt32(json.count))
                    w.raw(json)
                }
            }
        case .seal(let count):
            start(.seal)
            w.u64(count)
        case .checkpoint(let c):
            start(.checkpoint)
            w.raw(c.head)
            w.optionalTime(c.gpsTime)
            w.u64(c.monotonicNanoseconds)
            w.raw(c.signature)
        case .recovery(let discarded, let broken, let boot):
            start(.recovery)
            w.u64(discarded)
            w.string(broken)
            w.string(boot)
        case .user(let r):
            switch r {
            case .tripStarted(let s):
                start(.tripStarted)
                w.u64(s.id.rawValue)
                w.optionalString(s.vehicleID)
                w.string(s.reason)
                w.optionalTime(s.gpsTime?.nanoseconds)
                w.u64(s.monotonicNanoseconds)
                w.string(s.bootID)
            case .points(let trip, let points):
                start(.points)
                w.u64(trip.rawValue)
                w.u16(UInt16(points.count))
                for p in points { PointCodec.encode(p, into: &w) }
            case .tripEnded(let e):
                start(.tripEnded)
                w.u64(e.id.rawValue)
                w.string(e.reason)
                w.optionalTime(e.gpsTime?.nanoseconds)
                encodeSummary(e.summary, into: &w)
                w.bool(e.discarded)
                w.u64(e.monotonicNanoseconds)
            case .tripReopened(let t):
                start(.tripReopened)
                w.u64(t.id.rawValue)
                w.optionalString(t.vehicleID)
                w.string(t.startReason)
                w.optionalTime(t.startTime?.nanoseconds)
                w.string(t.previousEndReason)
                w.optionalTime(t.from?.nanoseconds)
                w.optionalTime(t.gpsTime?.nanoseconds)
                encodeSummary(t.summary, into: &w)
                if let p = t.lastPoint { w.u8(1); PointCodec.encode(p, into: &w) } else { w.u8(0) }
                w.u64(t.monotonicNanoseconds)
                w.string(t.bootID)
            case .signal(let s):
                start(.signal)
                w.string(s.source)
                w.optionalString(s.vehicleID)
                w.bool(s.on)
                w.optionalTime(s.gpsTime?.nanoseconds)
                w.u64(s.monotonicNanoseconds)
            case .entry(let e):
                start(.entry)
                w.string(e.type)
                w.u8(e.action.rawValue)
                w.string(e.subject)
                w.optionalTime(e.recordedAt)
                w.string(e.origin)
                let json = Array(e.fields.serialized.utf8)
                w.u32(UInt32(json.count))
                w.raw(json)
            }
        }
        return w.bytes
    }

    static func decode(_ payload: [UInt8]) throws -> (sequence: UInt64, record: LogicalRecord) {
        var r = ByteReader(payload)
        guard let kind = RecordKind(rawValue: try r.u8()) else { throw DecodeError(description: "unknown record kind") }
        guard try r.u8() == LogicalRecord.version else { throw DecodeError(description: "unknown record version") }
        let seq = try r.u64()
        let record: LogicalRecord
        switch kind {
        case .segmentHeader:
            let boot = try r.string()
            let mono = try r.u64()
            let head = try r.raw(32)
            let prevLast = try r.u64()
            let prevSealed = try r.bool()
            let nextTrip = try r.u64()
            let key = try r.raw(32)
            let n = Int(try r.u16())
            var trips: [OpenTrip] = []
            for _ in 0..<n { trips.append(try decodeOpenTrip(&r)) }
            var carried = CarriedEntries()
            if r.remaining > 0 {
                for _ in 0..<Int(try r.u16()) {
                    let type = try r.string(), subject = try r.string(), voided = try r.bool()
                    var json: [JSONValue] = []
                    for _ in 0..<2 {
                        let length = Int(try r.u32())
                        guard length <= r.remaining else { throw DecodeError(description: "bad carried entry length") }
                        guard let value = try? JSONValue.parse(String(decoding: try r.raw(length), as: UTF8.self)) else {
                            throw DecodeError(description: "bad carried entry fields")
                        }
                        json.append(value)
                    }
                    carried.insert(CarriedEntries.Item(
                        type: type, subject: subject, fields: json[0], voided: voided, configFields: json[1].isNull ? nil : json[1]))
                }
            }
            record = .header(SegmentHeader(
                bootID: boot, monotonicNanoseconds: mono, previousHead: head, previousLastSequence: prevLast, previousSealed: prevSealed,
                nextTripID: nextTrip, publicKey: key, openTrips: trips, carried: carried))
        case .seal:
            record = .seal(recordCount: try r.u64())
        case .checkpoint:
            record = .checkpoint(Checkpoint(
                head: try r.raw(32), gpsTime: try r.optionalTime(), monotonicNanoseconds: try r.u64(),
                signature: try r.raw(64)))
        case .recovery:
            record = .recovery(discardedBytes: try r.u64(), brokenFile: try r.string(), bootID: try r.string())
        case .tripStarted:
            let id = TripID(try r.u64())
            let vehicle = try r.optionalString()
            let reason = try r.string()
            let time = try r.optionalTime().map(GPSTime.init(nanoseconds:))
            record = .user(.tripStarted(TripStarted(
                id: id, vehicleID: vehicle, reason: reason, gpsTime: time,
                monotonicNanoseconds: try r.u64(), bootID: try r.string())))
        case .points:
            let trip = TripID(try r.u64())
            let n = Int(try r.u16())
            guard n > 0, r.remaining == n * PointCodec.size else { throw DecodeError(description: "bad point count") }
            var points: [TripPoint] = []
            points.reserveCapacity(n)
            for _ in 0..<n { points.append(try PointCodec.decode(&r)) }
            record = .user(.points(trip, points))
        case .tripEnded:
            let id = TripID(try r.u64())
            let reason = try r.string()
            let time = try r.optionalTime().map(GPSTime.init(nanoseconds:))
            let summary = TripSummary(
                distance: try r.f64(), duration: try r.f64(), maxSpeed: try r.f64(), averageSpeed: try r.f64(),
                pointCount: Int(clamping: try r.u64()))
            record = .user(.tripEnded(TripEnded(
                id: id, reason: reason, gpsTime: time, summary: summary, discarded: try r.bool(),
                monotonicNanoseconds: try r.u64())))
        case .tripReopened:
            let id = TripID(try r.u64())
            let vehicle = try r.optionalString()
            let reason = try r.string()
            let start = try r.optionalTime().map(GPSTime.init(nanoseconds:))
            let previous = try r.string()
            let from = try r.optionalTime().map(GPSTime.init(nanoseconds:))
            let time = try r.optionalTime().map(GPSTime.init(nanoseconds:))
            let summary = try decodeSummary(&r)
            let last: TripPoint? = try r.bool() ? try PointCodec.decode(&r) : nil
            record = .user(.tripReopened(TripReopened(
                id: id, vehicleID: vehicle, startReason: reason, startTime: start, previousEndReason: previous,
                from: from, gpsTime: time, summary: summary, lastPoint: last, monotonicNanoseconds: try r.u64(),
                bootID: try r.string())))
        case .signal:
            record = .user(.signal(SignalEvent(
                source: try r.string(), vehicleID: try r.optionalString(), on: try r.bool(),
                gpsTime: try r.optionalTime().map(GPSTime.init(nanoseconds:)), monotonicNanoseconds: try r.u64())))
        case .entry:
            let type = try r.string()
            guard let action = UserEntry.Action(rawValue: try r.u8()) else { throw DecodeError(description: "unknown entry action") }
            let subject = try r.string()
            let recorded = try r.optionalTime()
            let origin = try r.string()
            let length = Int(try r.u32())
            guard length <= UserEntry.maximumFieldsBytes else { throw DecodeError(description: "entry fields too long") }
            // Entries written before duplicate keys were refused keep their first value, the
            // one the daemon checked (JSONDuplicateKeys).
            let fields = try JSONValue.parse(try r.raw(length), duplicateKeys: .keepFirst)
            record = .user(.entry(UserEntry(
                type: type, action: action, subject: subject, fields: fields, recordedAt: recorded, origin: origin)))
        }
        guard r.remaining == 0 else { throw DecodeError(description: "trailing bytes in record") }
        return (seq, record)
    }

    private static func encodeSummary(_ s: TripSummary, into w: inout ByteWriter) {
        w.f64(s.distance)
        w.f64(s.duration)
        w.f64(s.maxSpeed)
        w.f64(s.averageSpeed)
        w.u64(UInt64(max(0, s.pointCount)))
    }

    private static func decodeSummary(_ r: inout ByteReader) throws -> TripSummary {
        TripSummary(
            distance: try r.f64(), duration: try r.f64(), maxSpeed: try r.f64(), averageSpeed: try r.f64(),
            pointCount: Int(clamping: try r.u64()))
    }

    private static func encodeOpenTrip(_ t: OpenTrip, into w: inout ByteWriter) {
        w.u64(t.id.rawValue)
        w.optionalTime(t.startTime)
        w.optionalTime(t.firstPointTime)
        if let p = t.lastPoint { w.u8(1); PointCodec.encode(p, into: &w) } else { w.u8(0) }
        w.u64(t.pointCount)
        w.f64(t.distance)
        w.f64(t.maxSpeed)
    }

    private static func decodeOpenTrip(_ r: inout ByteReader) throws -> OpenTrip {
        let id = TripID(try r.u64())
        let start = try r.optionalTime(), first = try r.optionalTime()
        let last: TripPoint? = try r.bool() ? try PointCodec.decode(&r) : nil
        return OpenTrip(
            id: id, startTime: start, firstPointTime: first, lastPoint: last, pointCount: try r.u64(),
            distance: try r.f64(), maxSpeed: try r.f64())
    }
}
