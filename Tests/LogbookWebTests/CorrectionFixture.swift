// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import LogbookRecords
import LogbookTestSupport
import Logging

/// A journal written by the real writer from the recorded Munich drive, cut into four trips:
/// 1, 2 and 3 driven by golf one after the other, 4 by polo — a vehicle added with the CLI
/// (a journal entry, origin `cli`), golf only in the configuration (``WebHarness``).
enum CorrectionFixture {
    struct Trip {
        var id: TripID
        var start: GPSTime
        var end: GPSTime
        var points: Int
    }

    static let vehicles = ["golf", "golf", "golf", "polo"]

    static func write(_ state: String) async throws -> [Trip] {
        let text = try String(contentsOfFile: TestPaths.gpsLog("munich-gps.nmea"), encoding: .isoLatin1)
        let fixes = NMEAReader.fixes(in: text).filter { $0.mode.rawValue >= 2 }
        let journal = try JournalWriter.open(
            JournalConfiguration(directory: state + "/journal", stateDirectory: state), logger: Logger(label: "web-corrections"))
        let polo = VehicleRecord(name: "Polo", registration: "M-PO 1")
        _ = try journal.append(.entry(UserEntry(polo.entry(subject: "polo", origin: EntryOrigin.cli), recordedAt: GPSTime(seconds: 1))))
        var trips: [Trip] = []
        let size = fixes.count / vehicles.count
        for (n, vehicle) in vehicles.enumerated() {
            let part = fixes[(n * size)..<((n + 1) * size)].map { TripPoint($0) }
            let id = journal.nextTripID()
            let start = part.first?.time ?? GPSTime(seconds: 0), end = part.last?.time ?? start
            _ = try journal.append(
                .tripStarted(TripStarted(id: id, vehicleID: vehicle, reason: "manual", gpsTime: start, monotonicNanoseconds: 1, bootID: "t")))
            var distance = 0.0
            for chunk in stride(from: 0, to: part.count, by: 100) {
                let batch = Array(part[chunk..<min(part.count, chunk + 100)])
                _ = try journal.append(.points(id, batch))
            }
            for (a, b) in zip(part, part.dropFirst()) { distance += Geodesy.distance(a, b) }
            let duration = end.seconds(since: start)
            let summary = TripSummary(distance: distance, duration: duration, maxSpeed: 20, averageSpeed: distance / duration, pointCount: part.count)
            _ = try journal.append(.tripEnded(TripEnded(id: id, reason: "manual", gpsTime: end, summary: summary)))
            trips.append(Trip(id: id, start: start, end: end, points: part.count))
        }
        try await journal.sync()
        try await journal.close()
        return trips
    }

    /// The bytes of every file in the journal directory: a write that was refused leaves it
    /// as it was.
    static func journalBytes(_ state: String) -> Int {
        let directory = state + "/journal"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.reduce(0) { sum, name in
            sum + ((try? FileManager.default.attributesOfItem(atPath: directory + "/" + name)[.size] as? Int) ?? 0)
        }
    }
}
