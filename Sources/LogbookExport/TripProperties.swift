// SPDX-License-Identifier: MIT
public import LogbookCore

/// A trip's summary as name/value pairs, with the names and values of `logbook trips show
/// --json` (and of the live state's trip block), so scripts read every export the same way:
/// SI units, ISO 8601 UTC times, the id as a string, `vehicle` as the vehicle object.
public enum TripProperties {
    /// The documented fields in their documented order; absent values are `null`.
    public static func members(of trip: TripOverview, vehicle: Vehicle?) -> [(String, JSONValue)] {
        [
            ("id", .string(trip.id.description)),
            ("vehicle", vehicle?.json ?? .null),
            ("started_at", .string(trip.startedAt?.description)),
            ("ended_at", .string(trip.endedAt?.description)),
            ("start_reason", .string(trip.startReason)),
            ("end_reason", .string(trip.endReason)),
            ("distance_m", .number(rounded(trip.distance, 1))),
            ("duration_s", .number(trip.duration.rounded())),
            ("avg_speed_mps", .number(trip.averageSpeed)),
            ("max_speed_mps", .number(trip.maxSpeed)),
            ("points", .number(Double(trip.pointCount))),
            ("discarded", .bool(trip.discarded)),
            ("recovered", .bool(trip.recovered)),
            ("origin", .string(trip.origin)),
        ]
    }

    /// The summary as one JSON object.
    public static func json(of trip: TripOverview, vehicle: Vehicle?) -> JSONValue { .object(members(of: trip, vehicle: vehicle)) }

    private static func rounded(_ v: Double, _ places: Int) -> Double? {
        guard v.isFinite else { return nil }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return (v * scale).rounded() / scale
    }
}
