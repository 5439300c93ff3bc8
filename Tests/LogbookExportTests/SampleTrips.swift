// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookExport

/// Small synthetic trips for the writers' unit tests.
enum SampleTrips {
    static let t0 = GPSTime(seconds: 1_270_293_745)  // 2010-04-03T11:22:25Z

    /// `count` points a second apart heading east at `speed` m/s from Olten; speeds ramp
    /// from 0 to `speed` when `ramp` is set.
    static func points(_ count: Int, from start: GPSTime = t0, speed: Double = 20, ramp: Bool = false) -> [TripPoint] {
        (0..<count).map { i in
            let v = ramp ? speed * Double(i) / Double(max(count - 1, 1)) : speed
            return TripPoint(
                time: GPSTime(nanoseconds: start.nanoseconds + Int64(i) * 1_000_000_000), latitude: 47.35 + Double(i) * 1e-5,
                longitude: 7.9 + Double(i) * 2.6e-4, speed: v, track: 88.5, altitude: 420 + Double(i % 7), eph: 4.2)
        }
    }

    static func overview(_ id: UInt64, _ points: [TripPoint], vehicle: String? = "golf", state: TripOverview.State = .closed)
        -> TripOverview
    {
        TripOverview(
            id: TripID(id), vehicleID: vehicle, startedAt: points.first?.time, endedAt: points.last?.time,
            startReason: "power:ACAD", endReason: "power:ACAD", distance: Double(points.count) * 20,
            duration: Double(max(points.count - 1, 0)), averageSpeed: 20, maxSpeed: points.compactMap(\.speed).max() ?? 0,
            pointCount: points.count, state: state)
    }

    /// A gap between point `index - 1` and point `index` of `points`.
    static func gap(before index: Int, in points: [TripPoint]) -> TripGap {
        let from = points[index - 1].time, to = points[index].time
        return TripGap(from: from, to: to, seconds: to.seconds(since: from), bridged: true)
    }

    /// `points` with a 40 s hole before `index` (times after it shifted).
    static func withHole(_ points: [TripPoint], before index: Int) -> [TripPoint] {
        points.enumerated().map { i, p in
            var q = p
            if i >= index { q.time = GPSTime(nanoseconds: p.time.nanoseconds + 40_000_000_000) }
            return q
        }
    }

    static func export(_ format: ExportFormat, _ catalog: MemoryCatalog, _ selection: TripSelection) throws -> String {
        let sink = MemorySink()
        try TripExport(format: format).write(selection, from: catalog, to: sink)
        return sink.text
    }
}
