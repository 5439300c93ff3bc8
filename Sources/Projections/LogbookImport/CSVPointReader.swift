// SPDX-License-Identifier: MIT
import LogbookCore

/// Points from a CSV file with a header row (RFC 4180: quotes, `""`, CRLF or LF): Logbook's
/// own export (`trip_id,vehicle,time,lat,lon,speed_mps,course_deg,eph_m,alt_m`, each trip a
/// ``RecordedTripMark``) or any file naming its columns `time`/`timestamp`,
/// `lat`/`latitude`, `lon`/`lng`/`longitude` and optionally `speed_mps`/`speed`,
/// `course_deg`/`course`/`bearing`, `eph_m`/`accuracy`, `alt_m`/`altitude`/`ele`. Read one row
/// at a time.
public struct CSVPointReader: ImportReader {
    public private(set) var input: ByteInput
    private var columns: [String: Int] = [:]
    private var started = false
    private var lastTrip: String?
    private var field: [UInt8] = []
    private var pending: ImportEvent?

    public init(_ input: ByteInput) { self.input = input }

    public mutating func next() throws(ImportIssue) -> ImportEvent? {
        if let p = pending {
            pending = nil
            return p
        }
        if !started {
            started = true
            guard let header = try row() else { throw ImportIssue(line: 1, "the file is empty") }
            for (i, name) in header.fields.enumerated() {
                var key = name.trimmingSpaces.lowercased()
                if key.hasPrefix("\u{FEFF}") { key.removeFirst() }
                if columns[key] == nil { columns[key] = i }
            }
            guard column("time", "timestamp", "date_time", "datetime") != nil, column("lat", "latitude") != nil,
                column("lon", "lng", "long", "longitude") != nil
            else {
                throw ImportIssue(line: 1, "not a track CSV: the header needs time, lat and lon columns (got \(header.fields.joined(separator: ",")))")
            }
        }
        while let r = try row() {
            if r.fields.allSatisfy({ $0.isEmpty }) { continue }
            let event = make(r)
            if let tripColumn = column("trip_id"), tripColumn < r.fields.count {
                let trip = r.fields[tripColumn]
                if trip != lastTrip {
                    lastTrip = trip
                    pending = event
                    let vehicle = column("vehicle").flatMap { $0 < r.fields.count ? r.fields[$0] : nil }
                    return .track(RecordedTripMark(id: trip, vehicle: vehicle?.isEmpty == false ? vehicle : nil))
                }
            } else if lastTrip == nil {
                lastTrip = ""
                pending = event
                return .track(nil)
            }
            return event
        }
        return nil
    }

    private func column(_ names: String...) -> Int? { names.lazy.compactMap { columns[$0] }.first }

    private func make(_ r: (line: Int, fields: [String])) -> ImportEvent {
        func cell(_ i: Int?) -> String? {
            guard let i, i < r.fields.count else { return nil }
            let s = r.fields[i].trimmingSpaces
            return s.isEmpty ? nil : s
        }
        func number(_ i: Int?) -> Double? { cell(i).flatMap(Double.init) }
        guard let t = cell(column("time", "timestamp", "date_time", "datetime")) else {
            return .bad(ImportIssue(line: r.line, "row without a time"))
        }
        guard let time = ISO8601.parseWithOffset(t) else { return .bad(ImportIssue(line: r.line, "time is not ISO 8601 with a zone: \(t)")) }
        guard let lat = number(column("lat", "latitude")), let lon = number(column("lon", "lng", "long", "longitude")) else {
            return .bad(ImportIssue(line: r.line, "row without a numeric lat and lon"))
        }
        return .point(ImportPoint(
            time: time, latitude: lat, longitude: lon, speed: number(column("speed_mps", "speed")),
            track: number(column("course_deg", "course", "bearing", "heading")), altitude: number(column("alt_m", "altitude", "alt", "ele", "elevation")),
            eph: number(column("eph_m", "accuracy", "eph")), line: r.line))
    }

    /// The next record (fields and the line it starts on), or nil at the end.
    private mutating func row() throws(ImportIssue) -> (line: Int, fields: [String])? {
        guard try input.peek() != nil else { return nil }
        let line = input.line
        var fields: [String] = []
        field.removeAll(keepingCapacity: true)
        var quoted = false
        var wasQuoted = false
        while let b = try input.next() {
            if quoted {
                if b == 34 {
                    if try input.peek() == 34 {
                        _ = try input.next()
                        field.append(34)
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(b)
                }
                continue
            }
            switch b {
            case 34 where field.isEmpty && !wasQuoted:
                quoted = true
                wasQuoted = true
            case 44:
                fields.append(String(decoding: field, as: UTF8.self))
                field.removeAll(keepingCapacity: true)
                wasQuoted = false
            case 13:
                continue
            case 10:
                fields.append(String(decoding: field, as: UTF8.self))
                return (line, fields)
            default:
                field.append(b)
            }
        }
        if quoted { throw ImportIssue(line: line, "the file ends inside a quoted field (truncated?)") }
        fields.append(String(decoding: field, as: UTF8.self))
        return (line, fields)
    }
}
