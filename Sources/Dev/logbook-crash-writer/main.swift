// SPDX-License-Identifier: MIT
// The writer the kill -9 crash test runs: it appends points to an open trip and, after each
// sync() returns, prints `ACK <seq> <point index>` for the last point now durable. The test
// kills it at a random moment and checks every acknowledged point survives.
//
// Usage: logbook-crash-writer <state-dir> <first point index> <points per sync>
import LogbookCore
import LogbookJournal
import Logging
#if canImport(Glibc)
    import Glibc
#endif

/// Unbuffered, so a line is out before the process can be killed.
func say(_ line: String, fd: Int32 = STDOUT_FILENO) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
}

let args = CommandLine.arguments
guard args.count >= 4, let first = Int(args[2]), let perSync = Int(args[3]) else {
    say("usage: logbook-crash-writer <state-dir> <first point index> <points per sync>", fd: STDERR_FILENO)
    exit(64)
}
let state = args[1]
var logger = Logger(label: "crash-writer")
logger.logLevel = .warning
let config = JournalConfiguration(
    directory: state + "/journal", stateDirectory: state, commitInterval: .milliseconds(50), segmentSize: 64 << 10)
let writer: JournalWriter
do { writer = try JournalWriter.open(config, logger: logger) } catch {
    say("open: \(error)", fd: STDERR_FILENO)
    exit(1)
}
let trip = writer.nextTripID()
say("OPEN \(writer.recovery.lastSequence) \(trip)")
try writer.append(.tripStarted(TripStarted(id: trip, reason: "service", monotonicNanoseconds: 0, bootID: "crash")))
var index = first
while true {
    var seq: UInt64 = 0
    for _ in 0..<perSync {
        let p = TripPoint(
            time: GPSTime(seconds: 1_790_000_000 + Int64(index)), latitude: 47 + Double(index % 1000) * 1e-4,
            longitude: 7 + Double(index % 997) * 1e-4, speed: Double(index % 40), track: nil, altitude: nil, eph: 3)
        seq = try writer.append(.points(trip, [p]))
        index += 1
    }
    try await writer.sync()
    say("ACK \(seq) \(index - 1)")
}
