// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import Logging

@testable import LogbookJournal

/// A fresh temporary directory per test, removed by `cleanup()`.
struct TempDir {
    let path: String

    init(_ label: String = #function) {
        let base = NSTemporaryDirectory() + "logbook-journal-" + label.filter { $0.isLetter || $0.isNumber } + "-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        path = base
    }

    var journal: String { path + "/journal" }
    func cleanup() { try? FileManager.default.removeItem(atPath: path) }
}

/// A deterministic point, already quantised as the journal stores it (cached: debug builds
/// are slow and the crash tests need hundreds of thousands).
func testPoint(_ i: Int) -> TripPoint {
    i < testPoints.count ? testPoints[i] : makeTestPoint(i)
}

let testPoints: [TripPoint] = (0..<20_000).map(makeTestPoint)

private func makeTestPoint(_ i: Int) -> TripPoint {
    PointCodec.quantised(TripPoint(
        time: GPSTime(seconds: 1_790_000_000 + Int64(i)), latitude: 47.29 + Double(i) * 1e-4,
        longitude: 7.74 + Double(i) * 1e-4, speed: Double(i % 40), track: Double(i % 360),
        altitude: i % 7 == 0 ? nil : 400 + Double(i % 50), eph: 5))
}

let quietLogger: Logger = {
    var l = Logger(label: "test.journal")
    l.logLevel = .critical
    return l
}()

/// Prints the one figure line the scripts grep.
func reportFigure(_ name: String, cases: Int, violations: Int, lost: Int) {
    print("journal-crash: \(name): \(cases) cases, \(violations) violations, \(lost) acknowledged lost")
}


/// Heap bytes in use in every malloc arena (glibc `malloc_info`: memory taken from the
/// system minus the free chunks), so a figure is not skewed by which thread allocated.
func heapBytesInUse() -> Int {
    typealias MallocInfo = @convention(c) (Int32, UnsafeMutablePointer<FILE>?) -> Int32
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_info") else { return 0 }
    var buffer: UnsafeMutablePointer<CChar>?
    var size = 0
    guard let stream = open_memstream(&buffer, &size) else { return 0 }
    _ = unsafeBitCast(symbol, to: MallocInfo.self)(0, stream)
    fclose(stream)
    defer { free(buffer) }
    guard let buffer else { return 0 }
    // The totals over all arenas follow the last </heap>.
    let xml = String(cString: buffer)
    let totals = xml.components(separatedBy: "</heap>").last ?? xml
    func value(_ tag: String) -> Int {
        guard let r = totals.range(of: tag) else { return 0 }
        let rest = totals[r.upperBound...]
        guard let q = rest.range(of: "size=\"") else { return 0 }
        return Int(rest[q.upperBound...].prefix { $0.isNumber }) ?? 0
    }
    return value("<system type=\"current\"") + value("<total type=\"mmap\"") - value("<total type=\"fast\"")
        - value("<total type=\"rest\"")
}

extension JournalWriter {
    /// `sync()` once a test has cleared an injected fault (a full disk, a failing write or
    /// `fdatasync`). A retry commit already under way may have met the fault and still fail
    /// the waiter (waitDurable's contract: wait again), so try a few times; a writer that
    /// never recovers still throws.
    func syncAfterFaultCleared() async throws {
        for attempt in 1...5 {
            do { return try await sync() } catch JournalError.commitFailed where attempt < 5 { continue }
        }
    }
}
