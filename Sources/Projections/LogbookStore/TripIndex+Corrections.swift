// SPDX-License-Identifier: MIT
internal import Foundation
internal import GRDB
public import LogbookCore
public import LogbookRecords

extension TripIndex {
    /// The next trip of the same vehicle after trip `number` by start time, voided and
    /// discarded trips skipped: the one a merge may join.
    public func nextTrip(after number: TripID) throws -> TripOverview? {
        guard let trip = try trip(number), let start = trip.startedAt else { return nil }
        var best: TripOverview?
        try forEachTrip(matching: TripQuery(vehicleID: trip.vehicleID, since: start, includeDiscarded: false, includeVoided: false)) { t in
            if t.id != number, let s = t.startedAt, s >= start, best.map({ s < ($0.startedAt ?? s) }) ?? true { best = t }
            return true
        }
        return best
    }

    /// The stretches of recorded trips trip `id` is made of; nil when it is one whole recorded
    /// trip (corrected or not).
    static func parts(of id: TripID, _ db: Database) throws -> [TripCorrections.Part]? {
        guard let text = try String.fetchOne(
            db, sql: "SELECT parts FROM corrected_trips WHERE number = ? AND merged_into IS NULL", arguments: [Int64(bitPattern: id.rawValue)]),
            case .array(let list) = try JSONValue.parse(text)
        else { return nil }
        let parts = list.compactMap { item -> TripCorrections.Part? in
            guard case .array(let v) = item, v.count == 3, let source = v[0].doubleValue else { return nil }
            return TripCorrections.Part(
                source: TripID(UInt64(source)), from: v[1].doubleValue.map { GPSTime(nanoseconds: Int64($0)) },
                until: v[2].doubleValue.map { GPSTime(nanoseconds: Int64($0)) })
        }
        return parts == [TripCorrections.Part(source: id)] ? nil : parts
    }

    /// The `WHERE` conditions of `query` (after a first condition), for `trips` and
    /// `corrected_trips` alike.
    static func filter(_ query: TripQuery) -> (String, StatementArguments) {
        var sql = ""
        var arguments: StatementArguments = []
        if let v = query.vehicleID {
            sql += " AND vehicle_id = ?"
            arguments += [v]
        }
        if let since = query.since {
            sql += " AND started_at >= ?"
            arguments += [since.nanoseconds]
        }
        if let until = query.until {
            sql += " AND started_at < ?"
            arguments += [until.nanoseconds]
        }
        if !query.includeDiscarded { sql += " AND state != 'discarded'" }
        return (sql, arguments)
    }

    /// The corrected trips matching `query` (merged-away ones never), newest first.
    static func correctedRows(_ db: Database, _ query: TripQuery) throws -> [TripOverview] {
        var (filter, arguments) = filter(query)
        if !query.includeVoided { filter += " AND voided = 0" }
        var sql = "SELECT \(CorrectedRow.selectColumns) FROM corrected_trips WHERE merged_into IS NULL" + filter + " ORDER BY number DESC"
        if let limit = query.limit { sql += " LIMIT \(max(0, limit))" }
        return try Row.fetchAll(db, sql: sql, arguments: arguments).map(CorrectedRow.overview)
    }
}

extension CorrectedRow {
    static let selectColumns = columns + ", crc"

    /// A row selected as ``selectColumns``, checked.
    static func overview(_ row: Row) throws -> TripOverview {
        try RowCheck.verify(row, "corrected trip row \(row[0] as Int64? ?? 0)")
        func position(_ lat: Double?, _ lon: Double?) -> TripOverview.Position? {
            guard let lat, let lon else { return nil }
            return TripOverview.Position(latitude: lat, longitude: lon)
        }
        let state = TripOverview.State(rawValue: row[4]) ?? .closed
        var trip = TripOverview(
            id: TripID(UInt64(bitPattern: row[0])), vehicleID: row[2], startedAt: (row[9] as Int64?).map(GPSTime.init(nanoseconds:)),
            endedAt: state == .open ? nil : (row[10] as Int64?).map(GPSTime.init(nanoseconds:)), startReason: row[7], endReason: row[8],
            distance: row[11], duration: row[12], averageSpeed: row[13], maxSpeed: row[14], pointCount: Int(row[15] as Int64),
            start: position(row[16], row[17]), end: position(row[18], row[19]), state: state)
        trip.driver = row[3]
        trip.voided = (row[5] as Int64) != 0
        trip.voidReason = row[6]
        trip.corrected = true
        trip.mergedFrom = (row[20] as String).split(separator: ",").compactMap { UInt64($0).map { TripID($0) } }
        trip.splitFrom = (row[21] as Int64?).map { TripID(UInt64(bitPattern: $0)) }
        return trip
    }
}

extension TripIndex {
    /// Every entry that changed trip `id` — classifications and corrections, its merge into
    /// another trip or its split from one included — oldest first (`trips show --history`).
    public func history(of id: TripID) throws -> [RecordedEntry] {
        try mapping {
            try pool.read { db in
                var rows: [Int64: TripRow] = [:]
                let fold = try CorrectedTrips.fold(db, rows: &rows)
                var out = fold?.trips[id]?.history ?? []
                let classes = try Row.fetchAll(
                    db, sql: "SELECT seq, type, action, subject, fields, recorded_at, origin, crc FROM entries WHERE type = ? AND subject = ? ORDER BY seq",
                    arguments: [TripClassRecord.type, String(id.rawValue)])
                out += try classes.map(CorrectedTrips.recordedEntry)
                return out.sorted { $0.sequence < $1.sequence }
            }
        }
    }

    /// The changes of every trip that has any (classifications and corrections), oldest first:
    /// what the yearly report lists.
    public func histories() throws -> [TripID: [RecordedEntry]] {
        try mapping {
            try pool.read { db in
                var rows: [Int64: TripRow] = [:]
                var out: [TripID: [RecordedEntry]] = [:]
                for (id, trip) in try CorrectedTrips.fold(db, rows: &rows)?.trips ?? [:] { out[id] = trip.history }
                let classes = try Row.fetchAll(
                    db, sql: "SELECT seq, type, action, subject, fields, recorded_at, origin, crc FROM entries WHERE type = ? ORDER BY seq",
                    arguments: [TripClassRecord.type])
                for row in classes {
                    let e = try CorrectedTrips.recordedEntry(row)
                    if let n = UInt64(e.entry.subject) { out[TripID(n), default: []].append(e) }
                }
                return out.mapValues { $0.sorted { $0.sequence < $1.sequence } }
            }
        }
    }

    /// The trip `id` was merged into, if it was.
    public func mergedInto(_ id: TripID) throws -> TripID? {
        try mapping {
            try pool.read { db in
                try Int64.fetchOne(db, sql: "SELECT merged_into FROM corrected_trips WHERE number = ?", arguments: [Int64(bitPattern: id.rawValue)])
                    .map { TripID(UInt64(bitPattern: $0)) }
            }
        }
    }
}
