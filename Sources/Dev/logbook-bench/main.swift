// SPDX-License-Identifier: MIT
// Journal micro-benchmarks (bench/journal-bench.sh runs this in release). Figures are printed,
// never asserted. Usage: logbook-bench [work-dir]
import LogbookCore
import LogbookJournal
import Logging
#if canImport(Glibc)
    import Glibc
#endif

let logger: Logger = {
    var l = Logger(label: "bench")
    l.logLevel = .warning
    return l
}()
let work = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "/tmp/logbook-journal-bench-\(getpid())"
mkdir(work, 0o755)

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Fixed-point formatting without Foundation.
func fmt(_ digits: Int, _ v: Double) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let r = (v * scale).rounded() / scale
    var s = String(Int(r))
    if digits > 0 {
        let frac = Int(((abs(r) - Double(Int(abs(r)))) * scale).rounded())
        s += "." + String(frac).leftPad(digits)
    }
    return s
}

func figure(_ name: String, _ value: String) { print("journal-bench: \(name): \(value)") }

func point(_ i: Int) -> TripPoint {
    TripPoint(
        time: GPSTime(seconds: 1_790_000_000 + Int64(i)), latitude: 47.3 + Double(i % 5000) * 1e-4,
        longitude: 7.7 + Double(i % 4000) * 1e-4, speed: Double(i % 40), track: Double(i % 360),
        altitude: 420 + Double(i % 30), eph: 4.5)
}

func directorySize(_ dir: String) -> Int {
    guard let d = opendir(dir) else { return 0 }
    defer { closedir(d) }
    var total = 0
    while let e = readdir(d) {
        let name = withUnsafePointer(to: e.pointee.d_name) { $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) } }
        guard name.hasSuffix(".seg") else { continue }
        var st = stat()
        if stat(dir + "/" + name, &st) == 0 { total += Int(st.st_size) }
    }
    return total
}

func segmentNames(_ dir: String) -> [String] {
    guard let d = opendir(dir) else { return [] }
    defer { closedir(d) }
    var names: [String] = []
    while let e = readdir(d) {
        let name = withUnsafePointer(to: e.pointee.d_name) { $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) } }
        if name.hasSuffix(".seg") { names.append(name) }
    }
    return names.sorted()
}

// 1. Bytes per point and fdatasyncs per minute at 1 Hz, time-compressed 100×: a 50 ms commit
//    interval with 5 points per interval stands for 5 s at 1 Hz; 600 ms checkpoints for 60 s.
do {
    let state = work + "/rate"
    let config = JournalConfiguration(
        directory: state + "/journal", stateDirectory: state, commitInterval: .milliseconds(50),
        checkpointInterval: .milliseconds(600))
    let w = try JournalWriter.open(config, logger: logger)
    let trip = w.nextTripID()
    try w.append(.tripStarted(TripStarted(id: trip, reason: "bench", monotonicNanoseconds: 0, bootID: "bench")))
    let before = w.statistics
    let simulatedMinutes = 3
    let points = simulatedMinutes * 60
    for i in 0..<points {
        try w.append(.points(trip, [point(i)]))
        usleep(10_000)  // 1 s of driving, 100× faster
    }
    try await w.sync()
    let after = w.statistics
    let syncs = after.syncs - before.syncs
    let bytes = after.bytesWritten - before.bytesWritten
    try await w.close()
    figure("bytes per point (1 Hz, 5 s commits, 60 s checkpoints, 100x time-compressed)", fmt(1, Double(bytes) / Double(points)))
    figure("fdatasync per minute at 1 Hz (100x time-compressed, \(simulatedMinutes) simulated min)", fmt(1, Double(syncs) / Double(simulatedMinutes)))
}

// 2. Append throughput (single caller thread; the writer thread commits in parallel) and the
//    genuine multi-segment journal used for verify below.
let realState = work + "/real"
let realJournal = realState + "/journal"
do {
    let config = JournalConfiguration(directory: realJournal, stateDirectory: realState, commitInterval: .seconds(1))
    let w = try JournalWriter.open(config, logger: logger)
    let trip = w.nextTripID()
    try w.append(.tripStarted(TripStarted(id: trip, reason: "bench", monotonicNanoseconds: 0, bootID: "bench")))
    let n = 2_500_000
    let pts = (0..<1000).map(point)
    let t0 = now()
    for i in 0..<n { try w.append(.points(trip, [pts[i % 1000]])) }
    let t1 = now()
    try await w.sync()
    let t2 = now()
    try w.append(.tripEnded(TripEnded(id: trip, reason: "bench", summary: .zero)))
    try await w.close()
    figure("append throughput (1 point per append)", fmt(0, Double(n) / (t1 - t0)) + " points/s")
    figure("append + commit to disk throughput", fmt(0, Double(n) / (t2 - t0)) + " points/s")
    figure("journal written for verify", fmt(1, Double(directorySize(realJournal)) / 1048576) + " MiB in \(segmentNames(realJournal).count) segments")
}

// 3. Recovery at open with a ~1 GB journal: ~250 sealed 4 MiB segments (hard links of one
//    real sealed segment, which recovery never reads) plus a real, unsealed, nearly full
//    active segment left by a writer that never closed (a crash).
@MainActor func recoveryBench(sealedCopies: Int) async throws -> (ms: Double, bytes: Int) {
    let crashed = work + "/crashed-\(sealedCopies)"
    let config = JournalConfiguration(directory: crashed + "/journal", stateDirectory: crashed, commitInterval: .seconds(10))
    let w = try JournalWriter.open(config, logger: logger)
    let trip = w.nextTripID()
    try w.append(.tripStarted(TripStarted(id: trip, reason: "bench", monotonicNanoseconds: 0, bootID: "bench")))
    // One full sealed 4 MiB segment, then a nearly full active one (~3.9 MiB durable); the
    // writer stays open, as if the power had been cut.
    for i in 0..<150_000 { try w.append(.points(trip, [point(i)])) }
    try await w.sync()
    for i in 0..<148_000 { try w.append(.points(trip, [point(i)])) }
    try await w.sync()
    let target = work + "/big-\(sealedCopies)"
    mkdir(target, 0o755)
    mkdir(target + "/journal", 0o755)
    link(crashed + "/journal.key", target + "/journal.key")
    let names = segmentNames(crashed + "/journal")
    for name in names { link(crashed + "/journal/" + name, target + "/journal/" + name) }
    let sealed = names.count > 1 ? names[0] : ""
    if !sealed.isEmpty {
        for k in 0..<sealedCopies {
            let fake = String(repeating: "0", count: 15) + "1-" + String(UInt32(10 + k), radix: 16).leftPad(8) + ".seg"
            link(crashed + "/journal/" + sealed, target + "/journal/" + fake)
        }
    }
    let bytes = directorySize(target + "/journal")
    let t0 = now()
    let r = try JournalWriter.open(JournalConfiguration(directory: target + "/journal", stateDirectory: target), logger: logger)
    let t1 = now()
    try await r.close()
    try await w.close()
    return ((t1 - t0) * 1000, bytes)
}

extension String {
    func leftPad(_ n: Int) -> String { String(repeating: "0", count: max(0, n - count)) + self }
}

do {
    for copies in [10, 250] {
        let r = try await recoveryBench(sealedCopies: copies)
        figure("recovery at open, \(fmt(2, Double(r.bytes) / 1e9)) GB journal, unsealed ~4 MiB active segment", fmt(1, r.ms) + " ms")
    }
}

// 4. verify throughput over the genuine journal of step 2.
do {
    let t0 = now()
    let report = verifyJournal(directory: realJournal, stateDirectory: realState)
    let t1 = now()
    figure("verify throughput", fmt(0, Double(report.bytes) / 1e6 / (t1 - t0)) + " MB/s (\(report.segments) segments, \(report.checkpoints) checkpoints, ok=\(report.ok))")
}
