// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import LogbookRecords
import LogbookTestSupport
import Logging

/// A real journal (fsync'd by the real writer) of a recorded drive, written in-process from
/// the NMEA log: a vehicle and an odometer entry, `beforeStart` (given the first fix's time),
/// trip start, the points in commits of `chunk`, `beforeEnd` (signals, entries a test adds),
/// trip end, `afterEnd`. A checkpoint is signed at every commit.
struct JournalFixture {
    let stateDirectory: String
    var journalDirectory: String { stateDirectory + "/journal" }
    /// Every point, in sequence order, with its sequence number.
    let points: [(UInt64, TripPoint)]

    static func write(log: String = "munich-gps.nmea", stateDirectory: String, vehicle: String = "golf", chunk: Int = 200,
                      limit: Int? = nil, beforeStart: (_ first: GPSTime?) -> [JournalRecord] = { _ in [] },
                      beforeEnd: (_ last: GPSTime?) -> [JournalRecord] = { _ in [] },
                      afterEnd: (_ last: GPSTime?) -> [JournalRecord] = { _ in [] }) async throws -> JournalFixture {
        let text = try String(contentsOfFile: TestPaths.gpsLog(log), encoding: .isoLatin1)
        var fixes = NMEAReader.fixes(in: text).filter { $0.mode.rawValue >= 2 }
        if let limit { fixes = Array(fixes.prefix(limit)) }
        let journal = try JournalWriter.open(
            JournalConfiguration(directory: stateDirectory + "/journal", stateDirectory: stateDirectory,
                                 checkpointInterval: .milliseconds(1)),
            logger: Logger(label: "fixture"))
        // The entries as the CLI writes them (the typed records), not a shape of the uplink's own.
        let before = GPSTime(nanoseconds: (fixes.first?.time.nanoseconds ?? 0) - 3_600_000_000_000)
        _ = try journal.append(.entry(UserEntry(
            VehicleRecord(name: "Test " + vehicle, make: "VW", model: "Golf").entry(subject: vehicle, origin: "test"), recordedAt: before)))
        let reading = OdometerRecord(vehicle: vehicle, at: before, odometerKm: 12_000)
        _ = try journal.append(.entry(UserEntry(
            reading.entry(subject: FuelRecord.subject(vehicle: vehicle, at: before), origin: "test"), recordedAt: before)))
        for record in beforeStart(fixes.first?.time) { _ = try journal.append(record) }
        let id = journal.nextTripID()
        _ = try journal.append(.tripStarted(TripStarted(
            id: id, vehicleID: vehicle, reason: "manual", gpsTime: fixes.first?.time, monotonicNanoseconds: 1, bootID: "test")))
        var count = 0
        var distance = 0.0
        var last: TripPoint?
        for start in stride(from: 0, to: fixes.count, by: chunk) {
            let batch = fixes[start..<min(fixes.count, start + chunk)].map { TripPoint($0) }
            _ = try journal.append(.points(id, batch))
            for p in batch {
                count += 1
                if let l = last { distance += Geodesy.distance(l, p) }
                last = p
            }
            try await journal.sync()
        }
        for record in beforeEnd(fixes.last?.time) { _ = try journal.append(record) }
        let duration = (fixes.last?.time.seconds ?? 0) - (fixes.first?.time.seconds ?? 0)
        _ = try journal.append(.tripEnded(TripEnded(
            id: id, reason: "manual", gpsTime: fixes.last?.time,
            summary: TripSummary(distance: distance, duration: duration, maxSpeed: 20, averageSpeed: distance / max(duration, 1),
                                 pointCount: count))))
        for record in afterEnd(fixes.last?.time) { _ = try journal.append(record) }
        try await journal.close()
        return try JournalFixture(stateDirectory: stateDirectory)
    }

    /// Reads back what a journal holds (points quantised as stored).
    init(stateDirectory: String) throws {
        self.stateDirectory = stateDirectory
        var pts: [(UInt64, TripPoint)] = []
        try JournalReader(directory: stateDirectory + "/journal").forEach { e in
            if case .points(_, let p) = e.record { pts += p.enumerated().map { (e.sequence + UInt64($0.offset), $0.element) } }
            return true
        }
        points = pts
    }
}
