// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore

/// The comparisons of the contract test: classification and the trip corrections.
extension ContractChecks {
    /// The `trip_corrected` event about `trip` on the events topic, and its state of `state`.
    static func corrected(_ r: ContractReaders, _ trip: String, _ state: String? = nil) -> JSONValue? {
        let e = r.events.last { $0["type"]?.stringValue == "trip_corrected" && $0["subject"]?.stringValue == trip }
        guard let state else { return e }
        return e?["trips"]?.arrayValue?.first { $0["trip"]?.doubleValue.map { String(Int($0)) } == state }
    }

    static func tripClass(_ p: ContractPlan, _ r: ContractReaders) -> Agreement {
        var a = Agreement("trip.class")
        func report(web: Bool) -> Bool {
            let business = r.reportRow(p.id(0), web: web), personal = r.reportRow(p.id(6), web: web)
            return business?["class"] == "business" && business?["purpose"] == "Client visit" && personal?["class"] == "private"
                && personal?["destination"] == "Home"
        }
        a.reader("index: report", report(web: false), "\(r.reportRow(p.id(0)) ?? [:])")
        a.reader("web: /api/report", report(web: true))
        a.reader("mqtt: trip_corrected events", corrected(r, p.id(0))?["correction"]?.stringValue == "classify"
                 && corrected(r, p.id(6))?["fields"]?["class"]?.stringValue == "private")
        a.reader("postgres: events", r.event("trip.class", p.id(0), pg: true)?["fields"]?["class"]?.stringValue == "business"
                 && r.event("trip.class", p.id(6), pg: true)?["origin"]?.stringValue == "web")
        return a
    }

    /// Golf's km as corrected: every trip but the voided (1, 7) and the assigned (2, 8) ones.
    static func golfKm(_ p: ContractPlan) -> Double {
        p.trips.enumerated().filter { ![1, 7, 2, 8].contains($0.offset) }.reduce(0) { $0 + $1.element.distance } / 1000
    }

    /// PostgreSQL's km of `vehicle` over the trips as corrected.
    static func pgKm(_ r: ContractReaders, _ vehicle: String) -> Double {
        r.pgTrips.values.filter { $0[2] == "f" && $0[4] == vehicle && $0[6].isEmpty }.reduce(0) { $0 + (Double($1[8]) ?? 0) } / 1000
    }

    static func tripVoid(_ p: ContractPlan, _ r: ContractReaders) -> Agreement {
        var a = Agreement("trip.void")
        let want = [(p.id(1), "test drive"), (p.id(7), "duplicate")]
        func voided(_ t: (String) -> JSONValue?) -> Bool {
            want.allSatisfy { t($0.0)?["voided"]?.boolValue == true && t($0.0)?["void_reason"]?.stringValue == $0.1 }
        }
        let km = golfKm(p)
        a.reader("index: trips list", voided(r.trip), "\(want.map { r.trip($0.0) ?? .null })")
        a.reader("index: stats", near(r.statsVehicle("golf")?["distance_km"]?.doubleValue, km, 0.002), "\(r.statsVehicle("golf") ?? .null) vs \(km)")
        a.reader("index: report", want.allSatisfy { r.reportRow($0.0)?["status"]?.contains("void") == true }, "\(r.reportRow(p.id(1)) ?? [:])")
        a.reader("web: /api/trips/{id}", voided(r.webTrip), "\(want.map { r.webTrip($0.0) ?? .null })")
        a.reader("web: /api/stats", near(r.statsVehicle("golf", web: true)?["distance_km"]?.doubleValue, km, 0.002))
        a.reader("home assistant: distance logged", near(Double(r.haState("golf", "logged_km") ?? ""), km, 0.006),
                 "\(r.haState("golf", "logged_km") ?? "nil") vs \(km)")
        a.reader("postgres: trips", want.allSatisfy { r.pgTrips[$0.0]?[2] == "t" && r.pgTrips[$0.0]?[3] == $0.1 } && near(pgKm(r, "golf"), km, 0.002),
                 "\(want.map { r.pgTrips[$0.0] ?? [] }), \(pgKm(r, "golf")) km")
        a.reader("mqtt: trip_corrected events", want.allSatisfy {
            corrected(r, $0.0, $0.0)?["voided"]?.boolValue == true && corrected(r, $0.0, $0.0)?["void_reason"]?.stringValue == $0.1
        })
        return a
    }

    static func tripAssign(_ p: ContractPlan, _ r: ContractReaders) -> Agreement {
        var a = Agreement("trip.assign")
        let want = [(2, "van", "Ann"), (8, "polo", "Bob")]
        func assigned(_ t: (String) -> JSONValue?) -> Bool {
            want.allSatisfy { t(p.id($0.0))?["vehicle"]?["id"]?.stringValue == $0.1 && t(p.id($0.0))?["driver"]?.stringValue == $0.2 }
        }
        a.reader("index: trips list", assigned(r.trip), "\(want.map { r.trip(p.id($0.0)) ?? .null })")
        a.reader("index: stats", want.allSatisfy { near(r.statsVehicle($0.1)?["distance_km"]?.doubleValue, p.trips[$0.0].distance / 1000, 0.002) })
        a.reader("index: report", want.allSatisfy { r.reportRow(p.id($0.0))?["vehicle"] == $0.1 && r.reportRow(p.id($0.0))?["driver"] == $0.2 })
        a.reader("web: /api/trips/{id}", assigned(r.webTrip), "\(want.map { r.webTrip(p.id($0.0)) ?? .null })")
        a.reader("web: /api/stats", want.allSatisfy { near(r.statsVehicle($0.1, web: true)?["distance_km"]?.doubleValue, p.trips[$0.0].distance / 1000, 0.002) })
        a.reader("home assistant: distance logged", want.allSatisfy {
            near(Double(r.haState($0.1, "logged_km") ?? ""), p.trips[$0.0].distance / 1000, 0.006)
        }, "\(want.map { r.haState($0.1, "logged_km") ?? "nil" })")
        a.reader("postgres: trips", want.allSatisfy { r.pgTrips[p.id($0.0)]?[4] == $0.1 && r.pgTrips[p.id($0.0)]?[5] == $0.2 })
        a.reader("mqtt: trip_corrected events", want.allSatisfy {
            corrected(r, p.id($0.0), p.id($0.0))?["vehicle"]?.stringValue == $0.1 && corrected(r, p.id($0.0), p.id($0.0))?["driver"]?.stringValue == $0.2
        })
        return a
    }

    static func tripMerge(_ p: ContractPlan, _ r: ContractReaders) -> Agreement {
        var a = Agreement("trip.merge")
        let want = [(3, 4), (9, 10)]
        func merged(_ t: (String) -> JSONValue?, listed: (String) -> Bool) -> Bool {
            want.allSatisfy { k, later in
                !listed(p.id(later)) && t(p.id(k))?["merged_from"]?.arrayValue?.contains(.string(p.id(later))) == true
                    && near(t(p.id(k))?["distance_m"]?.doubleValue, p.trips[k].distance + p.trips[later].distance, 0.1)
            }
        }
        a.reader("index: trips list", merged(r.trip, listed: { r.trip($0) != nil }), "\(want.map { r.trip(p.id($0.0)) ?? .null })")
        a.reader("index: report", want.allSatisfy { r.reportRow(p.id($0.1)) == nil && r.reportRow(p.id($0.0)) != nil })
        a.reader("web: /api/trips", merged(r.webTrip, listed: r.webListed), "\(want.map { r.webTrip(p.id($0.0)) ?? .null })")
        a.reader("postgres: trips", want.allSatisfy { k, later in
            r.pgTrips[p.id(later)]?[6] == p.id(k) && near(Double(r.pgTrips[p.id(k)]?[8] ?? ""), p.trips[k].distance + p.trips[later].distance, 0.001)
        }, "\(want.map { r.pgTrips[p.id($0.1)] ?? [] })")
        a.reader("mqtt: trip_corrected events", want.allSatisfy { k, later in
            corrected(r, p.id(k), p.id(later))?["merged_into"]?.doubleValue.map { String(Int($0)) } == p.id(k)
        })
        return a
    }

    static func tripSplit(_ p: ContractPlan, _ r: ContractReaders) -> Agreement {
        var a = Agreement("trip.split")
        // The new numbers the journal's writer gave the second parts.
        let parts: [(Int, String)] = [5, 11].compactMap { k in
            r.event("trip.split", p.id(k))?["fields"]?["new_trip"]?.doubleValue.map { (k, String(Int($0))) }
        }
        func split(_ t: (String) -> JSONValue?) -> Bool {
            parts.count == 2 && parts.allSatisfy { k, new in
                t(new)?["split_from"]?.stringValue == p.id(k)
                    && near((t(p.id(k))?["distance_m"]?.doubleValue ?? 0) + (t(new)?["distance_m"]?.doubleValue ?? 0), p.trips[k].distance, 0.2)
            }
        }
        a.reader("index: trips list", split(r.trip), "\(parts.map { r.trip($0.1) ?? .null })")
        a.reader("index: report", parts.count == 2 && parts.allSatisfy { r.reportRow($0.1) != nil && r.reportRow(p.id($0.0)) != nil })
        a.reader("web: /api/trips/{id}", split(r.webTrip), "\(parts.map { r.webTrip($0.1) ?? .null })")
        a.reader("postgres: trips", parts.count == 2 && parts.allSatisfy { k, new in
            r.pgTrips[new]?[1] == "f" && r.pgTrips[new]?[7] == p.id(k)
                && near(Double(r.pgTrips[new]?[8] ?? ""), r.trip(new)?["distance_m"]?.doubleValue, 0.1)
        }, "\(parts.map { r.pgTrips[$0.1] ?? [] })")
        a.reader("mqtt: trip_corrected events", parts.count == 2 && parts.allSatisfy { k, new in
            corrected(r, p.id(k), new)?["split_from"]?.doubleValue.map { String(Int($0)) } == p.id(k)
        })
        // The web's split made golf's newest trip: Home Assistant's "last trip" is its second part.
        let newest = parts.last.flatMap { r.trip($0.1) }
        let ended = newest?["ended_at"]?.stringValue.flatMap(ISO8601.parse)
        // HA shows the time as Python's isoformat (`…+00:00`).
        let shown = r.haState("golf", "last_trip_end").flatMap { ISO8601.parse($0.hasSuffix("+00:00") ? $0.dropLast(6) + "Z" : $0) }
        a.reader("home assistant: last trip", near(Double(r.haState("golf", "last_trip_distance_km") ?? ""),
                                                   newest?["distance_m"]?.doubleValue.map { $0 / 1000 }, 0.006)
                 && near(ended.map(\.seconds), shown.map(\.seconds), 1),
                 "\(r.haState("golf", "last_trip_distance_km") ?? "nil") km ended \(r.haState("golf", "last_trip_end") ?? "nil") vs \(newest ?? .null)")
        return a
    }
}
