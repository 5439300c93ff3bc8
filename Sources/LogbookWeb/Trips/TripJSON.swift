// SPDX-License-Identifier: MIT
internal import LogbookCore

/// Trips as the API serves them: the field names and units of `logbook trips list --json`
/// and `trips show --json` (SI units, ISO 8601 UTC, the id as a string), so one script reads
/// both. `docs/readme/index.md` is the contract; `openapi.json` describes it.
enum TripJSON {
    static func trip(_ t: TripOverview, vehicle: Vehicle?) -> [(String, JSONValue)] {
        // Built member by member: one literal of 17 implicit `.number`/`.string` members (each
        // overloaded) costs the type checker minutes.
        var m: [(String, JSONValue)] = []
        m.reserveCapacity(17)
        m.append(("id", JSONValue.string(t.id.description)))
        m.append(("active", JSONValue.bool(t.state == .open)))
        m.append(("vehicle", vehicle?.json ?? JSONValue.null))
        m.append(("started_at", text(t.startedAt?.description)))
        m.append(("ended_at", text(t.endedAt?.description)))
        m.append(("start_reason", JSONValue.string(t.startReason)))
        m.append(("end_reason", text(t.endReason)))
        m.append(("distance_m", number((t.distance * 10).rounded() / 10)))
        m.append(("duration_s", number(t.duration.rounded())))
        m.append(("avg_speed_mps", number(t.averageSpeed)))
        m.append(("max_speed_mps", number(t.maxSpeed)))
        m.append(("points", number(Double(t.pointCount))))
        m.append(("discarded", JSONValue.bool(t.discarded)))
        m.append(("recovered", JSONValue.bool(t.recovered)))
        m.append(("origin", JSONValue.string(t.origin)))
        m.append(("state", JSONValue.string(t.state.rawValue)))
        m.append(("start", position(t.start)))
        m.append(("end", position(t.end)))
        return m
    }

    /// JSON has no NaN or infinity: such a figure is `0`.
    static func number(_ v: Double) -> JSONValue { JSONValue.number(v.isFinite ? v : 0) }

    static func text(_ s: String?) -> JSONValue {
        guard let s else { return JSONValue.null }
        return JSONValue.string(s)
    }

    /// `{trips, totals}`: totals over the trips listed, discarded ones counted apart.
    static func list(_ trips: [TripOverview], vehicles: (String?) -> Vehicle?) -> JSONValue {
        var distance = 0.0, duration = 0.0, discarded = 0
        for t in trips {
            if t.discarded {
                discarded += 1
            } else {
                distance += t.distance.isFinite ? t.distance : 0
                duration += t.duration.isFinite ? t.duration : 0
            }
        }
        let items: [JSONValue] = trips.map { t in JSONValue.object(trip(t, vehicle: vehicles(t.vehicleID))) }
        var totals: [(String, JSONValue)] = []
        totals.append(("trips", number(Double(trips.count - discarded))))
        totals.append(("distance_m", number((distance * 10).rounded() / 10)))
        totals.append(("duration_s", number(duration.rounded())))
        totals.append(("discarded", number(Double(discarded))))
        return .object([("trips", .array(items)), ("totals", .object(totals))])
    }

    static func position(_ p: TripOverview.Position?) -> JSONValue {
        guard let p, p.latitude.isFinite, p.longitude.isFinite else { return .null }
        return JSONValue.object([("lat", number(p.latitude)), ("lon", number(p.longitude))])
    }

    static func gap(_ g: TripGap) -> JSONValue {
        .object([
            ("from", .string(g.from.description)), ("to", .string(g.to.description)),
            ("seconds", number(g.seconds.rounded())), ("bridged", JSONValue.bool(g.bridged)),
        ])
    }

}
