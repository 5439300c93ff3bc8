// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import LogbookRecords
import LogbookTestSupport

/// A test-made history of two weeks (Mon 2 Nov – Sun 15 Nov 2026, times UTC; the CLI runs
/// with TZ=UTC): trips of the Golf between home, office and shop on known weekdays and times,
/// each with the classification the rules of ``RulesTests`` must give it, by hand.
enum FixtureHistory {
    /// Named places: ids, centres, radius 150 m (about 2 km apart).
    static let places: [(id: String, lat: Double, lon: Double)] = [
        ("home", 47.3700, 8.5400), ("office", 47.3900, 8.5100), ("shop", 47.3600, 8.5600),
    ]

    struct Trip {
        var day: Int
        var time: String
        var from: String
        var to: String
        var km: Double
        var minutes: Double
        /// The class the rules give it (nil: no rule matches), as listed by hand.
        var expected: String?
        /// The rule that gives it.
        var rule: String?

        var start: GPSTime {
            let hm = time.split(separator: ":").compactMap { Int64($0) }
            return GPSTime(seconds: FixtureHistory.monday + Int64(day) * 86_400 + hm[0] * 3600 + hm[1] * 60)
        }
    }

    /// 2026-11-02T00:00:00Z, a Monday.
    static let monday: Int64 = 1_793_577_600

    static func t(_ day: Int, _ time: String, _ from: String, _ to: String, _ km: Double, _ minutes: Double, _ expected: String?, _ rule: String?)
        -> Trip
    {
        Trip(day: day, time: time, from: from, to: to, km: km, minutes: minutes, expected: expected, rule: rule)
    }

    /// Trips 1…30 in time order (the journal numbers them so).
    static let trips: [Trip] = [
        t(0, "07:30", "home", "office", 8.2, 18, "commute", "commute-out"),
        t(0, "17:15", "office", "home", 8.6, 24, "commute", "commute-back"),
        t(1, "07:35", "home", "office", 8.0, 16, "commute", "commute-out"),
        t(1, "17:20", "office", "home", 8.4, 22, "commute", "commute-back"),
        t(2, "07:40", "home", "office", 8.3, 20, "commute", "commute-out"),
        t(2, "17:10", "office", "home", 8.5, 25, "commute", "commute-back"),
        t(2, "18:00", "home", "shop", 2.1, 7, "private", "shop"),
        t(2, "18:40", "shop", "home", 2.2, 8, "private", "from-shop"),
        t(3, "07:30", "home", "office", 8.1, 17, "commute", "commute-out"),
        t(3, "17:30", "office", "home", 8.7, 26, "commute", "commute-back"),
        t(4, "07:25", "home", "office", 8.2, 19, "commute", "commute-out"),
        t(4, "22:30", "office", "home", 8.4, 14, nil, nil),  // after the 15:00-20:00 window
        t(5, "10:00", "home", "shop", 2.0, 6, "private", "weekend"),  // weekend comes before shop
        t(5, "11:00", "shop", "home", 2.3, 9, "private", "weekend"),
        t(6, "14:00", "home", "office", 8.2, 15, "private", "weekend"),  // Sunday: not a commute
        t(6, "16:00", "office", "home", 8.5, 17, "private", "weekend"),
        t(7, "07:30", "home", "office", 8.4, 21, "commute", "commute-out"),
        t(7, "17:15", "office", "home", 8.6, 23, "commute", "commute-back"),
        t(8, "07:45", "home", "office", 8.0, 18, "commute", "commute-out"),
        t(8, "17:05", "office", "home", 8.3, 20, "commute", "commute-back"),
        t(9, "09:55", "home", "office", 8.2, 17, "commute", "commute-out"),
        t(9, "12:00", "office", "shop", 5.0, 12, "private", "shop"),
        t(9, "12:30", "shop", "office", 5.1, 13, "private", "from-shop"),
        t(9, "19:59", "office", "home", 8.5, 18, "commute", "commute-back"),
        t(10, "10:00", "home", "office", 8.1, 16, nil, nil),  // 10:00 is past the window's end
        t(10, "20:00", "office", "home", 8.6, 21, nil, nil),
        t(11, "07:30", "home", "office", 8.3, 18, "commute", "commute-out"),
        t(11, "17:15", "office", "home", 8.4, 22, "commute", "commute-back"),
        t(12, "09:00", "home", "shop", 2.1, 7, "private", "weekend"),
        t(13, "18:00", "shop", "home", 2.2, 8, "private", "weekend"),
    ]

    static func position(_ place: String, offset: Double) -> (Double, Double) {
        let p = places.first { $0.id == place } ?? places[0]
        return (p.lat + offset, p.lon + offset)
    }

    /// Appends `trips` (Golf, manual) to the journal in `state`, as logbookd records them.
    static func append(_ trips: [Trip], state: String) async throws {
        let w = try await EntryAppender.openWriter(journalDirectory: state + "/journal", stateDirectory: state)
        for trip in trips {
            let id = w.nextTripID()
            let start = trip.start
            let end = GPSTime(nanoseconds: start.nanoseconds + Int64(trip.minutes * 60e9))
            let middle = GPSTime(nanoseconds: start.nanoseconds + Int64(trip.minutes * 30e9))
            let a = position(trip.from, offset: 0.0002), b = position(trip.to, offset: -0.0002)
            let points = [
                TripPoint(time: start, latitude: a.0, longitude: a.1, speed: 0, eph: 5),
                TripPoint(time: middle, latitude: (a.0 + b.0) / 2, longitude: (a.1 + b.1) / 2, speed: 14, eph: 5),
                TripPoint(time: end, latitude: b.0, longitude: b.1, speed: 0, eph: 5),
            ]
            try w.append(.tripStarted(TripStarted(id: id, vehicleID: "golf", reason: "manual", gpsTime: start, monotonicNanoseconds: 1, bootID: "fixture")))
            try w.append(.points(id, points))
            let summary = TripSummary(
                distance: trip.km * 1000, duration: trip.minutes * 60, maxSpeed: 20, averageSpeed: trip.km * 1000 / (trip.minutes * 60), pointCount: 3)
            try w.append(.tripEnded(TripEnded(id: id, reason: "manual", gpsTime: end, summary: summary, monotonicNanoseconds: 2)))
        }
        try await w.close()
    }

    /// A state directory with the history, the places and a config with `rules` (TOML) in `dir`.
    static func make(in dir: TemporaryDirectory, rules: String) async throws -> CLI {
        let config = dir.file("logbookd.toml")
        try """
            state_dir = "\(dir.file("state"))"
            runtime_dir = "\(dir.file("run"))"
            [[vehicle]]
            id = "golf"
            name = "Golf"
            \(rules)
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let entries = places.map { p in
            PlaceRecord(name: p.id, latitude: p.lat, longitude: p.lon, radius: 150).entry(subject: p.id, origin: "cli")
        }
        _ = try await EntryAppender.append(entries, recordedAt: GPSTime(seconds: monday - 86_400), journalDirectory: dir.file("state/journal"),
                                           stateDirectory: dir.file("state"))
        try await append(trips, state: dir.file("state"))
        return CLI(config: config)
    }

    /// Bytes in the journal's files: unchanged when nothing was written.
    static func journalBytes(_ state: String) throws -> Int {
        let dir = state + "/journal"
        return try FileManager.default.contentsOfDirectory(atPath: dir).reduce(0) { sum, name in
            sum + ((try FileManager.default.attributesOfItem(atPath: dir + "/" + name)[.size] as? Int) ?? 0)
        }
    }
}
