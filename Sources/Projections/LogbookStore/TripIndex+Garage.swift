// SPDX-License-Identifier: MIT
internal import Foundation
internal import GRDB
public import LogbookCore

extension TripIndex {
    /// GPS metres of the kept (not discarded) trips that started in `since ..< until`, by
    /// vehicle id (`""` for trips without one): the distance KPIs of `logbook stats`.
    public func distanceByVehicle(since: GPSTime?, until: GPSTime?) throws(TripIndexError) -> [String: Double] {
        try mapping {
            try pool.read { db in
                var sql = "SELECT coalesce(vehicle_id, ''), sum(distance_m) FROM trips WHERE state != 'discarded'"
                var arguments: StatementArguments = []
                if let since {
                    sql += " AND started_at >= ?"
                    arguments += [since.nanoseconds]
                }
                if let until {
                    sql += " AND started_at < ?"
                    arguments += [until.nanoseconds]
                }
                var out: [String: Double] = [:]
                for row in try Row.fetchAll(db, sql: sql + " GROUP BY 1", arguments: arguments) { out[row[0]] = row[1] }
                return out
            }
        }
    }
}

extension TripIndex {
    /// The journal position the index has read through: the last sequence and the chain head
    /// after it (what a report made from the index is sealed with).
    public func indexedPosition() throws(TripIndexError) -> (sequence: UInt64, chainHead: [UInt8]) {
        try mapping {
            try pool.read { db in
                let row = try Row.fetchOne(db, sql: "SELECT indexed_through_seq, chain_head FROM index_state WHERE id = 1")
                let seq: Int64 = row?[0] ?? 0
                let head: [UInt8] = (row?[1] as Data?).map { Array($0) } ?? []
                return (UInt64(bitPattern: seq), head)
            }
        }
    }
}
