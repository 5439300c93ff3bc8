// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookRecords

/// What the contract test writes, each entry type once through the CLI and once the web's
/// way, and what every reader should then show. Twelve recorded trips of `golf`; fill-ups,
/// readings and service after them (so the odometer now is the last reading).
struct ContractPlan {
    let trips: [TripsFixture.Trip]
    let now = Date().timeIntervalSince1970
    var year: Int { Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: Date(timeIntervalSince1970: now)).year ?? 2026 }

    /// ISO 8601 time `minutes` before the plan was made.
    func ago(_ minutes: Double) -> String { ISO8601.format(GPSTime(nanoseconds: Int64((now - minutes * 60) * 1e9))) }
    func id(_ k: Int) -> String { trips[k].id.description }
    /// A point time inside trip `k`: where it is split.
    func middle(_ k: Int) -> String { ISO8601.format(trips[k].points[trips[k].points.count / 2].time) }
    func place(_ p: TripPoint) -> String { "\(p.latitude),\(p.longitude)" }

    // Fill-ups 50,000 → 50,600 → 51,200 km, all full: 42 + 36 L over 1,200 km.
    let economy = 6.5
    // The last reading (web), after every fill: the odometer now.
    let odometerNow = 51_250.0
    // golf-oil: every 15,000 km, done at 50,650 (CLI) → due at 65,650.
    let oilDueKm = 65_650.0

    /// The OBD adapter's pending fill-ups, appended as logbookd's recorder makes them (origin
    /// `obd`) before anything else: the van's is completed with the CLI, golf's dismissed the
    /// web's way (the van's fill-up stays out of golf's economy and odometer).
    var pendingFills: [(id: String, record: PendingFillRecord)] {
        let van = PendingFillRecord(vehicle: "van", at: time(ago: 35), litresEstimated: 31.5, latitude: 48.1, longitude: 11.5,
                                    levelBefore: 30, levelAfter: 75, source: "elm")
        let golf = PendingFillRecord(vehicle: "golf", at: time(ago: 25), litresEstimated: 9, levelBefore: 60, levelAfter: 78, source: "elm")
        return [van, golf].map { (FuelRecord.subject(vehicle: $0.vehicle ?? "", at: $0.at), $0) }
    }
    func time(ago minutes: Double) -> GPSTime { GPSTime(nanoseconds: Int64((now - minutes * 60) * 1e9)) }

    var cliWrites: [[String]] {
        [
            ["vehicles", "add", "van", "--name", "Transit", "--make", "Ford", "--model", "Transit", "--registration", "M-LB 1"],
            ["fuel", "add", "--vehicle", "golf", "--odometer", "50000", "--litres", "40", "--price", "70", "--currency", "EUR", "--at", ago(40)],
            ["fuel", "add", "--vehicle", "golf", "--odometer", "50600", "--litres", "42", "--price", "73.5", "--currency", "EUR",
             "--at", ago(30), "--station", "Aral"],
            ["odometer", "add", "--vehicle", "golf", "--odometer", "50650", "--at", ago(20)],
            ["service", "add", "golf-oil", "--vehicle", "golf", "--name", "Oil change", "--every-km", "15000", "--last-done-km", "40000"],
            ["service", "done", "golf-oil", "--odometer", "50650", "--at", ago(20)],
            ["places", "add", "office", "--at", place(trips[0].points[0]), "--radius", "150", "--name", "Office"],
            ["trips", "classify", id(0), "business", "--purpose", "Client visit"],
            ["trips", "void", id(1), "--reason", "test drive"],
            ["trips", "assign", id(2), "--vehicle", "van", "--driver", "Ann"],
            ["trips", "merge", id(3), id(4)],
            ["trips", "split", id(5), "--at", middle(5)],
            ["fuel", "complete", pendingFills[0].id, "--price", "54.2", "--odometer", "12000", "--currency", "EUR"],
        ]
    }

    var webWrites: [(String, [(String, JSONValue)])] {
        let home = trips[6].points[trips[6].points.count - 1]
        return [
            ("vehicle.add", [("vehicle", .string("polo")), ("name", .string("Polo")), ("make", .string("VW")), ("model", .string("Polo"))]),
            ("fuel.add", [("vehicle", .string("golf")), ("odometer_km", .number(51_200)), ("litres", .number(36)), ("price", .number(63)),
                          ("currency", .string("EUR")), ("at", .string(ago(10))), ("note", .string("via web"))]),
            ("odometer.add", [("vehicle", .string("golf")), ("odometer_km", .number(odometerNow)), ("at", .string(ago(5)))]),
            ("service.add", [("task", .string("polo-tyres")), ("vehicle", .string("polo")), ("name", .string("Tyres")),
                             ("every_months", .number(12)), ("last_done_at", .string(ago(60 * 24 * 30)))]),
            ("service.done", [("task", .string("polo-tyres")), ("at", .string(ago(1)))]),
            ("place.add", [("place", .string("home")), ("name", .string("Home")), ("lat", .number(home.latitude)),
                           ("lon", .number(home.longitude)), ("radius_m", .number(150))]),
            ("trip.classify", [("trip", .string(id(6))), ("class", .string("private")), ("destination", .string("Home"))]),
            ("trip.void", [("trip", .string(id(7))), ("reason", .string("duplicate"))]),
            ("trip.assign", [("trip", .string(id(8))), ("vehicle", .string("polo")), ("driver", .string("Bob"))]),
            ("trip.merge", [("trip", .string(id(9))), ("with", .string(id(10)))]),
            ("trip.split", [("trip", .string(id(11))), ("at", .string(middle(11)))]),
            ("fuel.dismiss", [("subject", .string(pendingFills[1].id)), ("reason", .string("sensor jump"))]),
        ]
    }
}
