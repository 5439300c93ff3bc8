// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookUplink

/// What each reader showed for one entry type.
struct Agreement {
    let type: String
    /// `known`: why a reader disagrees when that is a known bug outside the uplink.
    var results: [(reader: String, ok: Bool, detail: String, known: String?)] = []

    init(_ type: String) { self.type = type }

    mutating func reader(_ name: String, _ ok: Bool, _ detail: @autoclosure () -> String = "", known: String? = nil) {
        results.append((name, ok, ok ? "" : detail(), ok ? nil : known))
    }
}

/// The comparisons of the contract test: the garage's entry types.
enum ContractChecks {
    static func all(plan: ContractPlan, readers: ContractReaders) -> [Agreement] {
        [
            vehicle(readers), fuel(plan, readers), odometer(plan, readers), service(readers), serviceDone(plan, readers),
            place(plan, readers), tripClass(plan, readers), tripVoid(plan, readers), tripAssign(plan, readers),
            tripMerge(plan, readers), tripSplit(plan, readers), pendingFill(plan, readers),
        ]
    }

    static func near(_ a: Double?, _ b: Double?, _ tolerance: Double) -> Bool {
        guard let a, let b else { return false }
        return abs(a - b) <= tolerance
    }

    static func byID(_ list: [JSONValue]?, _ id: String, key: String = "id") -> JSONValue? {
        list?.first { $0[key]?.stringValue == id }
    }

    static func vehicle(_ r: ContractReaders) -> Agreement {
        var a = Agreement("vehicle")
        let want = [("van", "Transit", "Ford", "Transit"), ("polo", "Polo", "VW", "Polo")]
        func same(_ j: JSONValue?, _ w: (String, String, String, String)) -> Bool {
            j?["name"]?.stringValue == w.1 && j?["make"]?.stringValue == w.2 && j?["model"]?.stringValue == w.3
        }
        a.reader("index: vehicles list", want.allSatisfy { same(byID(r.vehicles, $0.0), $0) }, "\(r.vehicles)")
        a.reader("index: stats", want.allSatisfy { r.statsVehicle($0.0)?["name"]?.stringValue == $0.1 }, "\(r.stats["vehicles"] ?? .null)")
        a.reader("web: /api/garage", want.allSatisfy { same(byID(r.webGarage["vehicles"]?.arrayValue, $0.0), $0) }, "\(r.webGarage)")
        a.reader("mqtt: events", want.allSatisfy { same(r.event("vehicle", $0.0)?["fields"], $0) })
        a.reader("home assistant: discovery", want.allSatisfy { w in
            let configs = r.discovery.filter { $0.key.contains("/logbook_\(r.device)/\(w.0)_") }.values
            return configs.count == HADiscovery.entities.count && r.ha.entities["logbook_\(r.device)_\(w.0)_logged_km"] != nil
                && configs.allSatisfy { same(.object([("name", $0["device"]?["name"] ?? .null), ("make", $0["device"]?["manufacturer"] ?? .null),
                                                      ("model", $0["device"]?["model"] ?? .null)]), w) }
        }, "\(r.discovery.keys.filter { $0.contains("van") || $0.contains("polo") }.count) configs")
        a.reader("mqtt: state topics", want.allSatisfy { r.states[$0.0]?["vehicle"]?.stringValue == $0.0 })
        a.reader("postgres: vehicles", want.allSatisfy { w in r.pgVehicles[w.0].map { Array($0[1...3]) } == [w.1, w.2, w.3] }, "\(r.pgVehicles)")
        return a
    }

    static func fuel(_ p: ContractPlan, _ r: ContractReaders) -> Agreement {
        var a = Agreement("fuel")
        let want: [(Double, Double, Double)] = [(50_000, 40, 70), (50_600, 42, 73.5), (51_200, 36, 63)]
        func has(_ list: [JSONValue]) -> Bool {
            want.allSatisfy { w in
                list.contains { $0["odometer_km"]?.doubleValue == w.0 && $0["litres"]?.doubleValue == w.1 && $0["price"]?.doubleValue == w.2 }
            }
        }
        a.reader("index: fuel list", has(r.fuel), "\(r.fuel)")
        a.reader("index: stats", r.statsVehicle("golf")?["economy_l_per_100km"]?.doubleValue == p.economy
                 && r.statsVehicle("golf")?["fill_ups"]?.doubleValue == 3, "\(r.statsVehicle("golf") ?? .null)")
        a.reader("web: /api/fuel", has(r.webFuel), "\(r.webFuel)")
        a.reader("web: /api/stats", r.statsVehicle("golf", web: true)?["economy_l_per_100km"]?.doubleValue == p.economy)
        a.reader("home assistant: fuel economy", Double(r.haState("golf", "fuel_economy_l_100km") ?? "") == p.economy,
                 r.haState("golf", "fuel_economy_l_100km") ?? "nil")
        a.reader("mqtt: events", has(r.events.filter { $0["entry_type"]?.stringValue == "fuel" }.compactMap { $0["fields"] }))
        a.reader("postgres: events", has(r.pgEvents.filter { $0["entry_type"]?.stringValue == "fuel" }.compactMap { $0["fields"] }))
        return a
    }

    static func odometer(_ p: ContractPlan, _ r: ContractReaders) -> Agreement {
        var a = Agreement("odometer")
        func has(_ list: [JSONValue]) -> Bool {
            [50_650.0, p.odometerNow].allSatisfy { km in list.contains { $0["odometer_km"]?.doubleValue == km && $0["vehicle"]?.stringValue == "golf" } }
        }
        // The service list's km left is the calibrated odometer now (the last reading).
        func now(_ service: [JSONValue]?) -> Double? {
            byID(service, "golf-oil", key: "task").flatMap { s in s["due_km"]?.doubleValue.flatMap { d in s["km_left"]?.doubleValue.map { d - $0 } } }
        }
        a.reader("index: odometer list", has(r.odometer)
                 && r.odometer.contains { $0["origin"]?.stringValue == "cli" } && r.odometer.contains { $0["origin"]?.stringValue == "web" }, "\(r.odometer)")
        a.reader("index: stats (service km left)", near(now(r.stats["service"]?.arrayValue), p.odometerNow, 0.1), "\(r.stats["service"] ?? .null)")
        a.reader("web: /api/garage (service km left)", near(now(r.webGarage["service"]?.arrayValue), p.odometerNow, 0.1))
        a.reader("home assistant: odometer", Double(r.haState("golf", "odometer_km") ?? "") == p.odometerNow, r.haState("golf", "odometer_km") ?? "nil")
        a.reader("mqtt: events", has(r.events.filter { $0["entry_type"]?.stringValue == "odometer" }.compactMap { $0["fields"] }))
        a.reader("postgres: events", has(r.pgEvents.filter { $0["entry_type"]?.stringValue == "odometer" }.compactMap { $0["fields"] }))
        return a
    }

    static func service(_ r: ContractReaders) -> Agreement {
        var a = Agreement("service")
        let want = [("golf-oil", "golf", "Oil change"), ("polo-tyres", "polo", "Tyres")]
        func has(_ list: [JSONValue]?) -> Bool {
            want.allSatisfy { w in byID(list, w.0, key: "task").map { $0["vehicle"]?.stringValue == w.1 && $0["name"]?.stringValue == w.2 } ?? false }
        }
        a.reader("index: service list", has(r.service), "\(r.service)")
        a.reader("index: stats", has(r.stats["service"]?.arrayValue))
        a.reader("web: /api/garage", has(r.webGarage["service"]?.arrayValue), "\(r.webGarage["service"] ?? .null)")
        a.reader("home assistant: service due", want.allSatisfy { w in
            r.haState(w.1, "service_due") == "ok"
                && r.ha.entities["logbook_\(r.device)_\(w.1)_service_due"]?["attributes"]?["task"]?.stringValue == w.0
        }, "\(r.ha.entities["logbook_\(r.device)_golf_service_due"] ?? .null)")
        a.reader("mqtt: events", want.allSatisfy { r.event("service", $0.0)?["fields"]?["name"]?.stringValue == $0.2 })
        a.reader("postgres: events", want.allSatisfy { r.event("service", $0.0, pg: true)?["fields"]?["name"]?.stringValue == $0.2 })
        return a
    }

    static func serviceDone(_ p: ContractPlan, _ r: ContractReaders) -> Agreement {
        var a = Agreement("service.done")
        // Oil: due 15,000 km after 50,650; tyres: 12 months after a minute ago.
        func due(_ list: [JSONValue]?) -> Bool {
            byID(list, "golf-oil", key: "task")?["due_km"]?.doubleValue == p.oilDueKm
                && (byID(list, "polo-tyres", key: "task")?["days_left"]?.doubleValue ?? 0) > 360
        }
        a.reader("index: service list", due(r.service), "\(r.service)")
        a.reader("index: stats", due(r.stats["service"]?.arrayValue))
        a.reader("web: /api/garage", due(r.webGarage["service"]?.arrayValue))
        a.reader("home assistant: service due in", Double(r.haState("golf", "service_due_km") ?? "") == p.oilDueKm - p.odometerNow
                 && (Double(r.haState("polo", "service_due_days") ?? "") ?? 0) > 360,
                 "\(r.haState("golf", "service_due_km") ?? "nil") km, \(r.haState("polo", "service_due_days") ?? "nil") d")
        let doneEvents = r.events.filter { $0["entry_type"]?.stringValue == "service.done" }
        a.reader("mqtt: events", doneEvents.contains { $0["fields"]?["task"]?.stringValue == "golf-oil" && $0["fields"]?["odometer_km"]?.doubleValue == 50_650 }
                 && doneEvents.contains { $0["fields"]?["task"]?.stringValue == "polo-tyres" && $0["origin"]?.stringValue == "web" })
        a.reader("postgres: events", r.pgEvents.filter { $0["entry_type"]?.stringValue == "service.done" }.count == 2)
        return a
    }

    static func place(_ p: ContractPlan, _ r: ContractReaders) -> Agreement {
        var a = Agreement("place")
        func has(_ list: [JSONValue]) -> Bool {
            byID(list, "office")?["name"]?.stringValue == "Office" && byID(list, "office")?["radius_m"]?.doubleValue == 150
                && byID(list, "home")?["name"]?.stringValue == "Home"
        }
        a.reader("index: places list", has(r.places), "\(r.places)")
        a.reader("index: trips list", r.trip(p.id(0))?["start_place"]?.stringValue == "Office" && r.trip(p.id(6))?["end_place"]?.stringValue == "Home",
                 "\(r.trip(p.id(0))?["start_place"] ?? .null), \(r.trip(p.id(6))?["end_place"] ?? .null)")
        a.reader("index: report", r.reportRow(p.id(0))?["start_place"]?.contains("Office") == true, "\(r.reportRow(p.id(0)) ?? [:])")
        a.reader("web: /api/report", r.reportRow(p.id(0), web: true)?["start_place"]?.contains("Office") == true)
        a.reader("mqtt: events", r.event("place", "office")?["fields"]?["name"]?.stringValue == "Office" && r.event("place", "home") != nil)
        a.reader("postgres: events", r.event("place", "office", pg: true) != nil && r.event("place", "home", pg: true)?["origin"]?.stringValue == "web")
        return a
    }

    /// The OBD adapter's pending fill-ups: the van's completed by a fill-up naming it (CLI),
    /// golf's dismissed (the web's way, through logbookd).
    static func pendingFill(_ p: ContractPlan, _ r: ContractReaders) -> Agreement {
        var a = Agreement("fuel.pending")
        let (van, golf) = (p.pendingFills[0].id, p.pendingFills[1].id)
        func completes(_ list: [JSONValue]) -> Bool {
            list.contains { $0["pending"]?.stringValue == van && $0["vehicle"]?.stringValue == "van" && $0["litres"]?.doubleValue == 31.5
                && $0["price"]?.doubleValue == 54.2 && $0["lat"]?.doubleValue == 48.1 }
        }
        let completedBy = byID(r.pendingFills, van)?["completed_by"]?.stringValue
        a.reader("index: fuel pending", byID(r.pendingFills, van)?["state"]?.stringValue == "completed" && completedBy == van
                 && byID(r.pendingFills, golf)?["state"]?.stringValue == "dismissed" && byID(r.pendingFills, golf)?["origin"]?.stringValue == "obd",
                 "\(r.pendingFills)")
        a.reader("index: fuel list", completes(r.fuel), "\(r.fuel)")
        a.reader("web: /api/fuel", completes(r.webFuel), "\(r.webFuel)")
        for (name, pg) in [("mqtt: events", false), ("postgres: events", true)] {
            let list = pg ? r.pgEvents : r.events
            let fill = list.filter { $0["entry_type"]?.stringValue == "fuel" }.compactMap { $0["fields"] }
            a.reader(name, r.event("fuel.pending", van, pg: pg)?["origin"]?.stringValue == "obd"
                     && r.event("fuel.pending", van, pg: pg)?["fields"]?["litres_estimated"]?.doubleValue == 31.5
                     && r.event("fuel.pending", golf, pg: pg)?["action"]?.stringValue == "void"
                     && r.event("fuel.pending", golf, pg: pg)?["origin"]?.stringValue == "web" && completes(fill),
                     "\(list.filter { $0["entry_type"]?.stringValue?.hasPrefix("fuel") == true })")
        }
        return a
    }
}
