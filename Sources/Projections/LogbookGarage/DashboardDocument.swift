// SPDX-License-Identifier: MIT
public import LogbookCore

/// `dashboard.json`: the garage's KPIs for other programs (a panel, a phone shortcut), in the
/// runtime directory, replaced atomically after every trip end and garage change.
///
/// Schema 1 (`docs/garage.md`): `schema`, `generated_at`, `indexed_through_seq`, every
/// member of `logbook stats --range all --json`, and `last_30_days` with the same KPIs over
/// the last 30 days. New members may be added within a schema; a change of meaning bumps it.
public enum DashboardDocument {
    public static let schema = 1

    public static func make(all: GarageStats, month: GarageStats, generatedAt: GPSTime, indexedThrough: UInt64) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("schema", .integer(schema)), ("generated_at", .string(ISO8601.format(generatedAt))),
            ("indexed_through_seq", .number(Double(indexedThrough))),
        ]
        if case .object(let kpis) = all.json { members += kpis }
        let recentKeys: Set = ["since", "total_distance_km", "fill_ups", "total_fuel_l", "total_spend", "economy_l_per_100km", "cost_per_km", "cost_per_l"]
        if case .object(let kpis) = month.json { members.append(("last_30_days", .object(kpis.filter { recentKeys.contains($0.0) }))) }
        return .object(members)
    }
}
