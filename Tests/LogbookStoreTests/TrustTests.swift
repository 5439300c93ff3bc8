// SPDX-License-Identifier: MIT
import Foundation
import GRDB
import LogbookCore
import LogbookJournal
import Testing

@testable import LogbookStore

/// What the index must never trust: records a power cut took back, files that are not its
/// own, damaged files.
@Suite struct TrustTests {
    /// The index saw records the daemon had not made durable; a power cut lost them and the
    /// next boot wrote other records under the same sequence numbers.
    @Test func recordsLostInAPowerCutAreRolledBack() async throws {
        let dir = StoreDir()
        defer { dir.cleanup() }
        var j = try JournalScript.open(dir)
        for _ in 0..<5 { try j.trip(points: 100) }
        try j.trip(points: 60, end: nil)  // open when the power goes
        try await j.close()
        let index = try TripIndex.open(path: dir.index, journalDirectory: dir.journal)
        _ = try index.catchUp()
        let durable = dir.path + "/durable-journal"
        try FileManager.default.copyItem(atPath: dir.journal, toPath: durable)

        // What the reader saw before the cut: more points of the open trip, a new trip.
        var seen = try JournalScript.open(dir)
        seen.time = j.time
        try seen.trip(points: 70, end: "power:ACAD")
        try await seen.close()
        _ = try index.catchUp()
        let before = try index.trips(matching: TripQuery()).count

        // The cut: only the durable state survives; the next boot records something else.
        try FileManager.default.removeItem(atPath: dir.journal)
        try FileManager.default.moveItem(atPath: durable, toPath: dir.journal)
        var after = try JournalScript.open(dir)
        after.time = j.time + 3_600 * 1_000_000_000
        after.latitude = 46
        try after.trip(vehicle: "zoe", reason: "manual", points: 33, end: "manual")
        try await after.close()

        let report = try index.catchUp()
        print("index-trust: power cut: rolled back to seq \(report.rolledBackTo ?? 0), rebuilt \(report.rebuilt), \(before) trips before")
        #expect(report.rolledBackTo != nil && !report.rebuilt)
        #expect(try index.dump() == (try cleanRebuildDump(dir)))
        #expect(try index.trips(matching: TripQuery(vehicleID: "zoe")).map(\.pointCount) == [33])
    }

    @Test(arguments: ["text", "short", "otherApp", "newerSchema"])
    func aForeignFileIsReplaced(kind: String) async throws {
        let dir = StoreDir()
        defer { dir.cleanup() }
        var j = try JournalScript.open(dir)
        try j.trip(points: 40)
        try await j.close()
        try FileManager.default.createDirectory(atPath: dir.cache, withIntermediateDirectories: true)
        switch kind {
        case "text": try String(repeating: "not a database\n", count: 20).write(toFile: dir.index, atomically: true, encoding: .utf8)
        case "short": try "SQLite".write(toFile: dir.index, atomically: true, encoding: .utf8)
        case "otherApp":
            let q = try DatabaseQueue(path: dir.index)
            try await q.write { try $0.execute(sql: "CREATE TABLE songs (title TEXT); INSERT INTO songs VALUES ('x')") }
            try q.close()
        default:
            _ = try TripIndex.open(path: dir.index, journalDirectory: dir.journal).catchUp()
            let q = try DatabaseQueue(path: dir.index)
            try await q.write { try $0.execute(sql: "INSERT INTO grdb_migrations VALUES ('v99')") }
            try q.close()
        }
        let index = try TripIndex.open(path: dir.index, journalDirectory: dir.journal)
        let why = try #require(index.replacedBecause)
        print("index-trust: \(kind): replaced: \(why)")
        let expected = ["text": "not a SQLite database", "short": "shorter than a SQLite header", "otherApp": "another application",
                        "newerSchema": "newer version"][kind] ?? "?"
        #expect(why.contains(expected))
        _ = try index.catchUp()
        #expect(try index.dump() == (try cleanRebuildDump(dir)))
    }

    /// One byte of the file changed at a time (bit rot, a torn page): every read of it either
    /// returns exactly what a clean index holds or reports damage — never other data.
    @Test func aDamagedByteIsDetectedOrHarmless() async throws {
        let dir = StoreDir()
        defer { dir.cleanup() }
        var j = try JournalScript.open(dir)
        for i in 0..<25 { try j.trip(vehicle: i % 2 == 0 ? "golf" : "zoe", points: 300, gapAfter: i % 5 == 0 ? 100 : nil) }
        try j.entry("vehicle", "golf", .add, [("name", .string("Golf"))])
        try await j.close()
        let clean = dir.path + "/clean.sqlite"
        let built = try TripIndex.open(path: clean, journalDirectory: dir.journal)
        _ = try built.catchUp()
        try built.close()  // checkpoints the WAL into the file
        let expected = try readEverything(clean, dir)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: clean)))
        var rng = SeededGenerator(seed: 8)
        var harmless = 0, detected = 0, undetected = 0
        let cases = 100
        for n in 0..<cases {
            var damaged = bytes
            let offset = Int.random(in: 0..<bytes.count, using: &rng)
            damaged[offset] ^= UInt8.random(in: 1...255, using: &rng)
            let path = dir.path + "/case\(n).sqlite"
            try Data(damaged).write(to: URL(fileURLWithPath: path))
            do {
                let got = try readEverything(path, dir)
                if got == expected { harmless += 1 } else {
                    undetected += 1
                    Issue.record("byte \(offset) changed the data silently")
                }
            } catch {
                detected += 1
            }
            for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + s) }
        }
        print("index-trust: flip a byte of the index: \(cases) cases, \(detected) detected, \(harmless) harmless, \(undetected) undetected")
        #expect(undetected == 0)
    }

    /// Opens the file as is (no replacement of a foreign file counts as reading it) and reads
    /// every trip, point, gap and entry the catalog offers.
    func readEverything(_ path: String, _ dir: StoreDir) throws -> [String] {
        let index = try TripIndex.open(path: path, journalDirectory: dir.journal)
        defer { try? index.close() }
        if let why = index.replacedBecause { throw TripIndexError.damaged(why) }
        _ = try index.catchUp()
        var out: [String] = []
        for t in try index.trips(matching: TripQuery()) {
            out.append("\(t)")
            try index.forEachPointChunk(of: t.id) { out.append("\($0)") }
            out.append("\(try index.gaps(of: t.id))")
            out.append("\(try index.trip(t.id).map { "\($0)" } ?? "-")")
        }
        try index.forEachEntry { out.append("\($0)"); return true }
        return out
    }
}

/// SplitMix64, so a failing case can be reproduced.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
