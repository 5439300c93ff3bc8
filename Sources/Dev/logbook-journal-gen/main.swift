// SPDX-License-Identifier: MIT
// logbook-journal-gen: writes a synthetic, multi-year journal through the real JournalWriter
// (segments, hash chain, signed checkpoints, fsync), for the benches of the index, the
// exports, the garage and the web app.
//
//   logbook-journal-gen WORK-DIR [--years 10] [--trips 50000] [--points 10000000]
//                       [--vehicles 3] [--points-per-record 5] [--seed 1] [--garage]
//
// The journal goes to WORK-DIR/state/journal (the key to WORK-DIR/state). When WORK-DIR/
// generated.txt names the same parameters, nothing is written again. Prints `journal-gen:`
// lines. Deterministic for a seed: the same parameters give the same records.
import Foundation
import LogbookCore
import LogbookJournal
import Logging

struct Parameters: CustomStringConvertible {
    var years = 10
    var trips = 50_000
    var points = 10_000_000
    var vehicles = 3
    var pointsPerRecord = 5
    var seed: UInt64 = 1
    /// Garage entries in the garage's fields (fill-ups, classifications): the garage bench.
    var garage = false

    var description: String {
        "years=\(years) trips=\(trips) points=\(points) vehicles=\(vehicles) points-per-record=\(pointsPerRecord) seed=\(seed)" + (garage ? " garage" : "")
    }

    static func parse(_ args: [String]) -> (String, Parameters)? {
        var p = Parameters()
        var work: String?
        var i = 0
        while i < args.count {
            let a = args[i]
            func value() -> Int? { i + 1 < args.count ? Int(args[i + 1]) : nil }
            switch a {
            case "--garage":
                p.garage = true
                i += 1
            case "--years", "--trips", "--points", "--vehicles", "--points-per-record", "--seed":
                guard let v = value(), v > 0 else { return nil }
                switch a {
                case "--years": p.years = v
                case "--trips": p.trips = v
                case "--points": p.points = v
                case "--vehicles": p.vehicles = min(v, Generator.fleet.count)
                case "--points-per-record": p.pointsPerRecord = min(v, 4096)
                default: p.seed = UInt64(v)
                }
                i += 2
            default:
                guard work == nil, !a.hasPrefix("-") else { return nil }
                work = a
                i += 1
            }
        }
        return work.map { ($0, p) }
    }
}

// `--read WORK-DIR`: only read the journal back through JournalTail (the floor under any
// projection's catch-up: framing, CRC, hash chain, decoding), and print the rate.
if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "--read" {
    let clock = ContinuousClock(), t0 = clock.now
    var tail = JournalTail(directory: CommandLine.arguments[2] + "/state/journal")
    var points = 0, records = 0
    while true {
        let batch = try tail.poll(maxEntries: 20_000)
        if batch.isEmpty { break }
        records += batch.count
        for e in batch { if case .points(_, let p) = e.record { points += p.count } }
    }
    let d = clock.now - t0
    let s = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    print(String(format: "journal-read: %d records, %d points in %.2f s: %.2f M points/s", records, points, s, Double(points) / s / 1e6))
    exit(0)
}

guard let (work, parameters) = Parameters.parse(Array(CommandLine.arguments.dropFirst())) else {
    FileHandle.standardError.write(Data("usage: logbook-journal-gen WORK-DIR [--years N] [--trips N] [--points N] [--vehicles N] [--points-per-record N] [--seed N] [--garage]\n".utf8))
    exit(64)
}
let marker = work + "/generated.txt"
if let done = try? String(contentsOfFile: marker, encoding: .utf8), done == parameters.description + "\n" {
    print("journal-gen: reusing \(work)/state/journal (\(parameters))")
    exit(0)
}
try? FileManager.default.removeItem(atPath: work + "/state")
try? FileManager.default.removeItem(atPath: marker)
try FileManager.default.createDirectory(atPath: work + "/state", withIntermediateDirectories: true)

var logger = Logger(label: "journal-gen")
logger.logLevel = .warning
var config = JournalConfiguration(
    directory: work + "/state/journal", stateDirectory: work + "/state", commitInterval: .milliseconds(50))
config.maximumPointsPerRecord = parameters.pointsPerRecord
let started = ContinuousClock.now
let writer = try JournalWriter.open(config, logger: logger)
var generator = Generator(parameters: parameters, writer: writer)
try generator.run()
try await writer.close()
let seconds = Double((ContinuousClock.now - started).components.attoseconds) / 1e18 + Double((ContinuousClock.now - started).components.seconds)
let names = try FileManager.default.contentsOfDirectory(atPath: work + "/state/journal").filter { $0.hasSuffix(".seg") }
let bytes = names.reduce(0) { sum, n in
    sum + (((try? FileManager.default.attributesOfItem(atPath: work + "/state/journal/" + n))?[.size] as? Int) ?? 0)
}
print(String(format: "journal-gen: %d trips (%d discarded), %d points, %d gaps, %d entries, %d vehicles in %.1f s (%.0f k points/s)",
             generator.tripsWritten, generator.discarded, generator.pointsWritten, generator.gaps, generator.entries,
             parameters.vehicles, seconds, Double(generator.pointsWritten) / seconds / 1000))
print(String(format: "journal-gen: %d segments, %.1f MB, %.1f bytes/point, last seq %d",
             names.count, Double(bytes) / 1e6, Double(bytes) / Double(max(1, generator.pointsWritten)), writer.durableSequence))
try (parameters.description + "\n").write(toFile: marker, atomically: true, encoding: .utf8)
