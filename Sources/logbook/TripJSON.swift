// SPDX-License-Identifier: MIT
import LogbookCore

/// Trips as JSON for scripts: the live state's trip field names (`id`, `vehicle`,
/// `started_at`, `ended_at`, `start_reason`, `end_reason`, `distance_m`, `duration_s`,
/// `avg_speed_mps`, `max_speed_mps`, `points`) plus `discarded`, `recovered`, `state` and the
/// first and last positions. SI units, ISO 8601 UTC times, the id as a string.
enum TripJSON {
    static func trip(_ t: TripOverview, vehicle: Vehicle?) -> [(String, JSONValue)] {
        [
            ("id", .string(t.id.description)),
            ("active", .bool(t.state == .open)),
            ("vehicle", vehicle?.json ?? .null),
            ("started_at", .string(t.startedAt?.description)),
            ("ended_at", .string(t.endedAt?.description)),
            ("start_reason", .string(t.startReason)),
            ("end_reason", .string(t.endReason)),
            ("distance_m", .number((t.distance * 10).rounded() / 10)),
            ("duration_s", .number(t.duration.rounded())),
            ("avg_speed_mps", .number(t.averageSpeed)),
            ("max_speed_mps", .number(t.maxSpeed)),
            ("points", .number(Double(t.pointCount))),
            ("discarded", .bool(t.discarded)),
            ("recovered", .bool(t.recovered)),
            ("origin", .string(t.origin)),
            ("state", .string(t.state.rawValue)),
            ("start", position(t.start)),
            ("end", position(t.end)),
            ("start_place", .string(t.startPlace)),
            ("end_place", .string(t.endPlace)),
        ]
    }

    static func position(_ p: TripOverview.Position?) -> JSONValue {
        guard let p else { return .null }
        return .object([("lat", .number(p.latitude)), ("lon", .number(p.longitude))])
    }

    static func gap(_ g: TripGap) -> JSONValue {
        .object([
            ("from", .string(g.from.description)), ("to", .string(g.to.description)),
            ("seconds", .number(g.seconds.rounded())), ("bridged", .bool(g.bridged)),
        ])
    }
}
