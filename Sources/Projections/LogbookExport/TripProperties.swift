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
            ("driver", .string(trip.driver)),
            ("voided", .bool(trip.voided)),
            ("corrected", .bool(trip.corrected)),
        ]
    }

    /// A trip as `logbook trips list/show --json` and the web API serve it: the summary with
    /// `active` after the id, then the state, first and last positions, place names and how
    /// corrections changed it. One implementation for the CLI and the web app.
    public static func apiMembers(of trip: TripOverview, vehicle: Vehicle?) -> [(String, JSONValue)] {
        var m = members(of: trip, vehicle: vehicle)
        m.insert(("active", .bool(trip.state == .open)), at: 1)
        m.append(("state", .string(trip.state.rawValue)))
        m.append(("start", position(trip.start)))
        m.append(("end", position(trip.end)))
        m.append(("start_place", .string(trip.startPlace)))
        m.append(("end_place", .string(trip.endPlace)))
        m.append(("void_reason", .string(trip.voidReason)))
        m.append(("merged_from", .array(trip.mergedFrom.map { .string($0.description) })))
        m.append(("split_from", .string(trip.splitFrom?.description)))
        return m
    }

    /// `{lat, lon}`, or `null` when unknown or not finite.
    public static func position(_ p: TripOverview.Position?) -> JSONValue {
        guard let p, p.latitude.isFinite, p.longitude.isFinite else { return .null }
        return .object([("lat", .number(p.latitude)), ("lon", .number(p.longitude))])
    }

    /// A stretch without a fix: `{from, to, seconds, bridged}`.
    public static func gap(_ g: TripGap) -> JSONValue {
        .object([
            ("from", .string(g.from.description)), ("to", .string(g.to.description)),
            ("seconds", .number(g.seconds.rounded())), ("bridged", .bool(g.bridged)),
        ])
    }

    /// `{trips, totals}`: totals over the trips listed; discarded and voided trips are listed
    /// but not counted.
    public static func list(_ trips: [TripOverview], vehicles: (String?) -> Vehicle?) -> JSONValue {
        var totals = TripListTotals()
        for t in trips { totals.add(t) }
        return .object([("trips", .array(trips.map { .object(apiMembers(of: $0, vehicle: vehicles($0.vehicleID))) })), ("totals", totals.json)])
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

/// ``TripProperties/list(_:vehicles:)``'s document written as it goes, trip by trip, for lists
/// as long as the history: ``opening``, each ``element(_:vehicle:)``, then ``closing`` join to
/// exactly that document.
public struct TripListWriter: Sendable {
    private var totals = TripListTotals()

    public init() {}

    public let opening = "{\"trips\":["

    /// The trip's member of the list (with its separator).
    public mutating func element(_ t: TripOverview, vehicle: Vehicle?) -> String {
        let text = (totals.count > 0 ? "," : "") + JSONValue.object(TripProperties.apiMembers(of: t, vehicle: vehicle)).serialized
        totals.add(t)
        return text
    }

    /// The end of the list and the totals over the trips written.
    public var closing: String { "],\"totals\":" + totals.json.serialized + "}" }
}

/// The totals of a trip list, kept as the trips go by.
public struct TripListTotals: Sendable {
    /// Trips seen (listed).
    public private(set) var count = 0
    private var counted = 0, discarded = 0, voided = 0
    private var distance = 0.0, duration = 0.0

    public init() {}

    public mutating func add(_ t: TripOverview) {
        count += 1
        if t.discarded { discarded += 1 }
        if t.voided { voided += 1 }
        guard !t.discarded && !t.voided else { return }
        counted += 1
        if t.distance.isFinite { distance += t.distance }
        if t.duration.isFinite { duration += t.duration }
    }

    /// `{trips, distance_m, duration_s, discarded, voided}`.
    public var json: JSONValue {
        .object([
            ("trips", .number(Double(counted))),
            ("distance_m", .number((distance * 10).rounded() / 10)),
            ("duration_s", .number(duration.rounded())),
            ("discarded", .number(Double(discarded))),
            ("voided", .number(Double(voided))),
        ])
    }
}
