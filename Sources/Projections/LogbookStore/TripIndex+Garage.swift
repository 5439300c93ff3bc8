// SPDX-License-Identifier: MIT
internal import Foundation
internal import GRDB
public import LogbookCore

extension TripIndex {
    /// GPS metres of the kept (not discarded, not voided) trips that started in
    /// `since ..< until`, by vehicle id (`""` for trips without one), corrections applied: the
    /// distance KPIs of `logbook stats`.
    public func distanceByVehicle(since: GPSTime?, until: GPSTime?) throws(TripIndexError) -> [String: Double] {
        let (filter, arguments) = Self.filter(TripQuery(since: since, until: until, includeDiscarded: false))
        return try mapping {
            try pool.read { db in
                var out: [String: Double] = [:]
                let recorded = "SELECT coalesce(vehicle_id, ''), sum(distance_m) FROM trips WHERE id NOT IN (SELECT number FROM corrected_trips)"
                let corrected = "SELECT coalesce(vehicle_id, ''), sum(distance_m) FROM corrected_trips WHERE merged_into IS NULL AND voided = 0"
                for sql in [recorded, corrected] {
                    for row in try Row.fetchAll(db, sql: sql + filter + " GROUP BY 1", arguments: arguments) {
                        out[row[0], default: 0] += row[1] as Double? ?? 0
                    }
                }
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
