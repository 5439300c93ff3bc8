// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal

/// Drives a fleet through the years: plausible speeds (city, country, motorway), heading
/// drift, no-fix gaps journalled as the daemon does (`gps:no-fix` on/off), short discarded
/// trips, the occasional trip closed `recovered`, vehicle and fuel entries.
struct Generator {
    struct Car {
        var id: String
        var name: String
        var latitude: Double
        var longitude: Double
        var reason: String
        var sinceFuel = 0.0
        /// `--garage`: what its odometer reads (it over-reads GPS by 2 %).
        var odometer = 10_000.0
    }

    static let fleet: [Car] = [
        Car(id: "golf", name: "Golf", latitude: 47.3769, longitude: 8.5417, reason: "power:ACAD"),
        Car(id: "zoe", name: "Zoe", latitude: 48.1372, longitude: 11.5756, reason: "bluetooth:00:11:22:33:44:55"),
        Car(id: "transporter", name: "Transporter", latitude: 52.5200, longitude: 13.4050, reason: "motion"),
        Car(id: "panda", name: "Panda", latitude: 45.4642, longitude: 9.1900, reason: "gpio:ignition"),
    ]

    let parameters: Parameters
    let writer: JournalWriter
    var rng: SplitMix64
    var cars: [Car]
    var tripsWritten = 0, discarded = 0, pointsWritten = 0, gaps = 0, entries = 0
    private var monotonic: UInt64 = 0

    init(parameters: Parameters, writer: JournalWriter) {
        self.parameters = parameters
        self.writer = writer
        rng = SplitMix64(seed: parameters.seed)
        cars = Array(Self.fleet.prefix(parameters.vehicles))
    }

    mutating func run() throws {
        for car in cars {
            try entry(type: "vehicle", subject: car.id, fields: [("name", .string(car.name))])
        }
        let start: Int64 = 1_451_606_400  // 2016-01-01T00:00:00Z
        let span = Double(parameters.years) * 365.25 * 86_400
        var remainingPoints = parameters.points
        for i in 0..<parameters.trips {
            let remainingTrips = parameters.trips - i
            let short = rng.unit() < 0.02 && remainingTrips > 1
            let mean = Double(remainingPoints) / Double(remainingTrips)
            var n: Int
            if remainingTrips == 1 {
                n = remainingPoints
            } else if short {
                n = Int(rng.next() % 3)
            } else {
                n = Int((-log(max(1e-9, rng.unit())) * mean).rounded())
                n = min(max(n, 30), Int(mean * 8), remainingPoints - (remainingTrips - 1))
            }
            n = max(0, n)
            remainingPoints -= n
            let slot = start + Int64(span * Double(i) / Double(parameters.trips))
            let begin = slot + Int64(rng.next() % 1800)
            try writeTrip(car: Int(rng.next() % UInt64(cars.count)), at: begin, points: n, short: short)
        }
    }

    private mutating func writeTrip(car index: Int, at begin: Int64, points n: Int, short: Bool) throws {
        var car = cars[index]
        let id = writer.nextTripID()
        monotonic += 1_000_000_000
        let signal = car.reason.hasPrefix("motion") ? nil : car.reason
        if let signal { try writer.append(.signal(SignalEvent(source: signal, vehicleID: car.id, on: true, monotonicNanoseconds: monotonic))) }
        try writer.append(.tripStarted(TripStarted(
            id: id, vehicleID: car.id, reason: car.reason, gpsTime: GPSTime(seconds: begin), monotonicNanoseconds: monotonic,
            bootID: "journal-gen")))
        // One no-fix gap in one trip of twenty (a tunnel, a car park).
        let gapAt = n > 60 && rng.unit() < 0.05 ? Int(rng.next() % UInt64(n - 20)) + 10 : -1
        var time = begin * 1_000_000_000
        var speed = 0.0, heading = rng.unit() * 360, cruise = [13.9, 22.2, 33.3][Int(rng.next() % 3)]
        var stats = (distance: 0.0, max: 0.0)
        var batch: [TripPoint] = []
        batch.reserveCapacity(parameters.pointsPerRecord)
        var last: TripPoint?
        for k in 0..<n {
            if k == gapAt {
                let seconds = Int64(20 + rng.next() % 580)
                try flush(&batch, id)
                try writer.append(.signal(SignalEvent(source: "gps:no-fix", vehicleID: car.id, on: true, gpsTime: GPSTime(nanoseconds: time), monotonicNanoseconds: monotonic)))
                time += seconds * 1_000_000_000
                try writer.append(.signal(SignalEvent(source: "gps:no-fix", vehicleID: car.id, on: false, gpsTime: GPSTime(nanoseconds: time), monotonicNanoseconds: monotonic)))
                gaps += 1
            }
            // Accelerate towards a cruising speed that changes now and then; brake at the end.
            if rng.unit() < 0.01 { cruise = [8.3, 13.9, 22.2, 27.8, 33.3][Int(rng.next() % 5)] }
            let target = k > n - 30 ? 0 : cruise
            speed = max(0, min(36, speed + max(-3, min(2, (target - speed) * 0.1)) + (rng.unit() - 0.5)))
            heading = (heading + (rng.unit() - 0.5) * 8).truncatingRemainder(dividingBy: 360)
            let rad = heading * .pi / 180
            car.latitude += speed * cos(rad) / 111_320
            car.longitude += speed * sin(rad) / (111_320 * cos(car.latitude * .pi / 180))
            let p = TripPoint(
                time: GPSTime(nanoseconds: time), latitude: car.latitude, longitude: car.longitude, speed: speed,
                track: heading < 0 ? heading + 360 : heading, altitude: 400 + 50 * sin(Double(k) / 300), eph: 3 + rng.unit() * 5)
            if let last { stats.distance += Geodesy.distance(last, p) }
            stats.max = max(stats.max, speed)
            last = p
            batch.append(p)
            if batch.count == parameters.pointsPerRecord { try flush(&batch, id) }
            time += 1_000_000_000
        }
        try flush(&batch, id)
        pointsWritten += n
        let duration = n > 0 ? Double(time - begin * 1_000_000_000) / 1e9 - 1 : 0
        let roll = rng.unit()
        let endReason = roll < 0.01 ? "recovered" : roll < 0.015 ? "gap" : roll < 0.03 ? "manual" : car.reason
        monotonic += UInt64(max(0, duration)) * 1_000_000_000
        try writer.append(.tripEnded(TripEnded(
            id: id, reason: endReason, gpsTime: last?.time,
            summary: TripSummary(
                distance: stats.distance, duration: duration, maxSpeed: stats.max,
                averageSpeed: duration > 0 ? stats.distance / duration : 0, pointCount: n),
            discarded: short, monotonicNanoseconds: monotonic)))
        if let signal { try writer.append(.signal(SignalEvent(source: signal, vehicleID: car.id, on: false, gpsTime: last?.time, monotonicNanoseconds: monotonic))) }
        tripsWritten += 1
        if short { discarded += 1 }
        car.sinceFuel += stats.distance
        car.odometer += stats.distance / 1000 * 1.02
        if parameters.garage {
            try garageEntries(&car, trip: id, end: last?.time ?? GPSTime(seconds: begin), short: short)
        } else if car.sinceFuel > 600_000 {
            car.sinceFuel = 0
            try entry(type: "fuel", subject: "\(car.id)-\(id)", fields: [
                ("vehicle", .string(car.id)), ("litres", .number((35 + rng.unit() * 15).rounded())),
                ("odometer_km", .number(Double(pointsWritten / 100))),
            ])
        }
        cars[index] = car
    }

    /// `--garage`: fill-ups in the garage's fields (full mostly, partial one in ten, EUR, CHF
    /// for the Swiss car) every ~600 km, and one trip in four classified.
    private mutating func garageEntries(_ car: inout Car, trip id: TripID, end: GPSTime, short: Bool) throws {
        if !short, id.rawValue % 4 == 0 {
            let c = ["business", "private", "commute"][Int(rng.next() % 3)]
            try entry(type: "trip.class", subject: id.description, fields: [("class", .string(c))])
        }
        guard car.sinceFuel > 600_000 else { return }
        let litres = (car.sinceFuel / 1000 * (5.5 + rng.unit() * 2) / 100 * 100).rounded() / 100
        car.sinceFuel = 0
        let currency = car.id == "golf" ? "CHF" : "EUR"
        let at = GPSTime(nanoseconds: end.nanoseconds + 120_000_000_000)
        let stamp = ISO8601.format(at)
        try entry(type: "fuel", subject: car.id + "@" + String(stamp.filter { $0 != "-" && $0 != ":" }), fields: [
            ("vehicle", .string(car.id)), ("at", .string(stamp)), ("odometer_km", .number(car.odometer.rounded())),
            ("litres", .number(litres)), ("price", .number((litres * (1.6 + rng.unit() * 0.4) * 100).rounded() / 100)),
            ("currency", .string(currency)), ("full", .bool(rng.unit() > 0.1)), ("missed", .bool(false)),
        ])
    }

    private mutating func flush(_ batch: inout [TripPoint], _ id: TripID) throws {
        guard !batch.isEmpty else { return }
        try writer.append(.points(id, batch))
        batch.removeAll(keepingCapacity: true)
    }

    private mutating func entry(type: String, subject: String, fields: [(String, JSONValue)]) throws {
        try writer.append(.entry(UserEntry(type: type, action: .add, subject: subject, fields: .object(fields), origin: "journal-gen")))
        entries += 1
    }
}
