// SPDX-License-Identifier: MIT
public import LogbookCore

extension RouteTable {
    /// `logbook routes --json` and `/api/routes`: SI units, ISO 8601 times.
    public var json: JSONValue {
        .object([
            ("routes", .array(routes.map { r in
                .object([
                    ("from", .string(r.from)), ("to", .string(r.to)), ("count", .number(Double(r.count))),
                    ("median_distance_m", .number(r.medianDistance)), ("median_duration_s", .number(r.medianDuration)),
                    ("fastest", .object([("trip", .number(Double(r.fastest.rawValue))), ("duration_s", .number(r.fastestDuration))])),
                    ("slowest", .object([("trip", .number(Double(r.slowest.rawValue))), ("duration_s", .number(r.slowestDuration))])),
                    ("last_driven", r.lastDriven.map { .string(ISO8601.format($0)) } ?? .null),
                    ("trips", .array(r.trips.map { .number(Double($0.rawValue)) })),
                ])
            })),
            ("unnamed_trips", .number(Double(unnamed))),
        ])
    }
}
