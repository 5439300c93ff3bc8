// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import LogbookTestSupport
import Logging

/// A real journal (the real writer, fsync'd) of a recorded drive cut into `count` consecutive
/// trips of one vehicle, its times moved so the last point was `endingBefore` seconds ago
/// (the sensors, stats and service states are for now, and the report for this year).
struct TripsFixture {
    struct Trip {
        var id: TripID
        var start: GPSTime
        var end: GPSTime
        var points: [TripPoint]
        /// Metres, as the daemon sums them.
        var distance: Double
    }

    let stateDirectory: String
    var journalDirectory: String { stateDirectory + "/journal" }
    let trips: [Trip]

    static func write(log: String = "munich-gps.nmea", stateDirectory: String, vehicle: String, count: Int, endingBefore: Double = 3600)
        async throws -> TripsFixture
    {
        let text = try String(contentsOfFile: TestPaths.gpsLog(log), encoding: .isoLatin1)
        let fixes = NMEAReader.fixes(in: text).filter { $0.mode.rawValue >= 2 }
        guard let last = fixes.last?.time else { throw ServerError.failed("no fixes in \(log)") }
        let now = Int64(Date().timeIntervalSince1970 * 1e9)
        let shift = now - Int64(endingBefore * 1e9) - last.nanoseconds
        let journal = try JournalWriter.open(
            JournalConfiguration(directory: stateDirectory + "/journal", stateDirectory: stateDirectory), logger: Logger(label: "fixture"))
        var trips: [Trip] = []
        let size = fixes.count / count
        for k in 0..<count {
            let chunk = fixes[(k * size)..<(k == count - 1 ? fixes.count : (k + 1) * size)].map { fix -> TripPoint in
                var p = TripPoint(fix)
                p.time = GPSTime(nanoseconds: p.time.nanoseconds + shift)
                return p
            }
            guard let first = chunk.first, let end = chunk.last else { continue }
            let id = journal.nextTripID()
            _ = try journal.append(.tripStarted(TripStarted(
                id: id, vehicleID: vehicle, reason: "manual", gpsTime: first.time, monotonicNanoseconds: 1, bootID: "fixture")))
            _ = try journal.append(.points(id, chunk))
            var distance = 0.0
            for (a, b) in zip(chunk, chunk.dropFirst()) { distance += Geodesy.distance(a, b) }
            let duration = end.time.seconds(since: first.time)
            _ = try journal.append(.tripEnded(TripEnded(
                id: id, reason: "manual", gpsTime: end.time,
                summary: TripSummary(distance: distance, duration: duration, maxSpeed: chunk.compactMap(\.speed).max() ?? 0,
                                     averageSpeed: distance / max(duration, 1), pointCount: chunk.count))))
            try await journal.sync()
            trips.append(Trip(id: id, start: first.time, end: end.time, points: chunk, distance: distance))
        }
        try await journal.close()
        return TripsFixture(stateDirectory: stateDirectory, trips: trips)
    }
}
