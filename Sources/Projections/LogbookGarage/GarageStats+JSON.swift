// SPDX-License-Identifier: MIT
public import LogbookCore
import LogbookRecords

extension GarageStats {
    /// The `stats --json` document (and the KPI part of `dashboard.json`): SI units and
    /// money per currency; names are a contract (`docs/garage.md`).
    public var json: JSONValue {
        let mpg = litresPer100km.map { FuelEconomy.mpgUS(litresPer100km: $0) }
        return .object([
            ("range", .string(range.name)),
            ("since", .string(range.since.map(ISO8601.format))),
            ("vehicle", .string(vehicle)),
            ("total_distance_km", .number(Self.round(distanceKm, 3))),
            ("fill_ups", .integer(fillUps)),
            ("total_fuel_l", .number(Self.round(litres, 3))),
            ("total_spend", Self.money(spend, 2)),
            ("economy_l_per_100km", .number(litresPer100km.map { Self.round($0, 3) })),
            ("economy_km_per_l", .number(litresPer100km.map { Self.round(100 / $0, 3) })),
            ("economy_mpg_us", .number(mpg.map { Self.round($0, 2) })),
            ("cost_per_km", Self.money(costPerKm, 4)),
            ("cost_per_l", Self.money(costPerLitre, 4)),
            ("last_fill_up", lastFill.map(Self.fillJSON) ?? .null),
            ("vehicles", .array(vehicles.map { v in
                .object([
                    ("id", .string(v.id)), ("name", .string(v.name)), ("distance_km", .number(Self.round(v.distanceKm, 3))),
                    ("fill_ups", .integer(v.fillUps)), ("fuel_l", .number(Self.round(v.litres, 3))), ("spend", Self.money(v.spend, 2)),
                    ("economy_l_per_100km", .number(v.litresPer100km.map { Self.round($0, 3) })),
                ])
            })),
            ("recent", .array(recent.map(Self.fillJSON))),
            ("trend_bucket", .string(range.bucket.rawValue)),
            ("trend", .array(trend.map {
                .object([("bucket", .string($0.label)), ("economy_l_per_100km", .number(Self.round($0.litresPer100km, 3))),
                         ("distance_km", .number(Self.round($0.distanceKm, 3)))])
            })),
        ])
    }

    /// A fuel log as JSON (stats, dashboard, `fuel list --json`).
    public static func fillJSON(_ f: FuelLog) -> JSONValue {
        var m: [(String, JSONValue)] = [
            ("id", .string(f.id)), ("number", .integer(f.number)), ("vehicle", .string(f.vehicle)), ("at", .string(ISO8601.format(f.at))),
            ("odometer_km", .number(f.odometerKm)), ("litres", .number(f.litres)), ("price", .number(f.price)),
            ("currency", .string(f.currency)), ("full", .bool(f.full)), ("missed", .bool(f.missed)),
            ("station", .string(f.station)), ("lat", .number(f.latitude)), ("lon", .number(f.longitude)),
            ("voided", .bool(f.voided)), ("changed", .bool(f.history.count > 1)),
        ]
        // Only on a fill-up that completed the OBD adapter's pending one.
        if let pending = f.record.pending { m.append(("pending", .string(pending))) }
        return .object(m)
    }

    static func money(_ values: [String: Double], _ places: Int) -> JSONValue {
        .object(values.keys.sorted().map { ($0, .number(round(values[$0] ?? 0, places))) })
    }

    static func round(_ value: Double, _ places: Int) -> Double {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return (value * scale).rounded() / scale
    }
}
