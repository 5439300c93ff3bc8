// SPDX-License-Identifier: MIT
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
