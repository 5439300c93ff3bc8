// SPDX-License-Identifier: MIT
// Writes the journal bench/uplink-bench.sh drains: `logbook-uplink-bench STATE_DIR POINTS`.
// The Swiss drive's fixes (fixtures/gpslogs), repeated with shifted times until POINTS
// 1 Hz points exist, appended as logbookd does: one trip per 3-hour drive, a commit every
// 5 points (its 5 s group commit at 1 Hz) and a signed checkpoint at most every 25 ms.
import Foundation
import LogbookCore
import LogbookJournal
import LogbookTestSupport
import Logging

let args = CommandLine.arguments
guard args.count == 3, let total = Int(args[2]), total > 0 else {
    FileHandle.standardError.write(Data("usage: logbook-uplink-bench STATE_DIR POINTS\n".utf8))
    exit(64)
}
let state = args[1]
let text = try String(contentsOfFile: TestPaths.gpsLog("20100403_Z205_Switzerland.txt"), encoding: .isoLatin1)
let drive = NMEAReader.fixes(in: text).filter { $0.mode.rawValue >= 2 }.map { TripPoint($0) }
var log = Logger(label: "bench")
log.logLevel = .error
let journal = try JournalWriter.open(
    JournalConfiguration(directory: state + "/journal", stateDirectory: state, commitInterval: .seconds(10),
                         checkpointInterval: .milliseconds(25)), logger: log)
var written = 0
var lap: Int64 = 0
while written < total {
    let id = journal.nextTripID()
    let shift = lap * 4 * 3600 * 1_000_000_000  // each lap four hours later
    _ = try journal.append(.tripStarted(TripStarted(id: id, vehicleID: "z205", reason: "power:ignition",
                                                   gpsTime: drive.first.map { GPSTime(nanoseconds: $0.time.nanoseconds + shift) },
                                                   monotonicNanoseconds: UInt64(written), bootID: "bench")))
    var n = 0
    for var p in drive where written < total {
        p.time = GPSTime(nanoseconds: p.time.nanoseconds + shift)
        _ = try journal.append(.points(id, [p]))
        written += 1
        n += 1
        if written % 5 == 0 { try await journal.sync() }
    }
    _ = try journal.append(.tripEnded(TripEnded(id: id, reason: "power:ignition", summary: TripSummary(
        distance: 0, duration: Double(n), maxSpeed: 0, averageSpeed: 0, pointCount: n))))
    lap += 1
}
try await journal.close()
print("points \(written), checkpoints \(journal.statistics.checkpoints)")
