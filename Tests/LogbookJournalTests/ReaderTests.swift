// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import Testing

@testable import LogbookJournal

@Suite struct ReaderTests {
    @Test func tripsTailAndDiscarded() async throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let config = JournalConfiguration(directory: dir.journal, stateDirectory: dir.path, segmentSize: 64 << 10)
        let w = try JournalWriter.open(config, logger: quietLogger)
        var tail = JournalTail(directory: dir.journal)
        let a = w.nextTripID(), b = w.nextTripID()
        try w.append(.tripStarted(TripStarted(id: a, vehicleID: "golf", reason: "power:ignition", monotonicNanoseconds: 0, bootID: "b")))
        try w.append(.points(a, (0..<3000).map(testPoint)))  // spans several 64 KiB segments
        try w.append(.signal(SignalEvent(source: "power:ignition", on: false, monotonicNanoseconds: 5)))
        try w.append(.tripEnded(TripEnded(id: a, reason: "power:ignition", summary: TripSummary(
            distance: 1234, duration: 3000, maxSpeed: 39, averageSpeed: 0.4, pointCount: 3000))))
        try await w.sync()
        #expect(try tail.poll(upTo: w.durableSequence).count >= 4)
        try w.append(.tripStarted(TripStarted(id: b, reason: "manual", monotonicNanoseconds: 9, bootID: "b")))
        try w.append(.tripEnded(TripEnded(id: b, reason: "manual", summary: .zero, discarded: true)))
        try await w.sync()
        let more = try tail.poll(upTo: w.durableSequence)
        #expect(more.count == 2)
        #expect(try tail.poll().isEmpty)
        try await w.close()
        let reader = try JournalReader(directory: dir.journal)
        let trips = try reader.trips()
        #expect(trips.map(\.id) == [a, b])
        #expect(trips[0].state == .closed)
        #expect(trips[0].vehicleID == "golf")
        #expect(trips[0].summary.distance == 1234)
        #expect(trips[0].startTime == testPoint(0).time)
        #expect(trips[1].state == .discarded)
        #expect(try reader.points(of: a) == (0..<3000).map(testPoint))
        #expect(try reader.points(of: b).isEmpty)
        let segments = SegmentName.segments(in: try FileManager.default.contentsOfDirectory(atPath: dir.journal))
        #expect(segments.count >= 2)
        // Every sealed segment respects the cap.
        for s in segments {
            let size = (try FileManager.default.attributesOfItem(atPath: dir.journal + "/" + s.fileName)[.size] as? Int) ?? 0
            #expect(size <= 64 << 10)
        }
        // --from skips whole segments that end before it.
        let last = try #require(reader.entries().last?.sequence)
        let partial = verifyJournal(directory: dir.journal, stateDirectory: dir.path, from: last)
        #expect(partial.ok)
        #expect(partial.segments < segments.count)
    }

    /// A torn tail in the active segment is set aside, the segment sealed, the trip closed.
    @Test func entriesAreReadBackInOrderBesideTrips() async throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let w = try JournalWriter.open(JournalConfiguration(directory: dir.journal, stateDirectory: dir.path), logger: quietLogger)
        let vehicle = UserEntry(
            type: "vehicle", action: .add, subject: "golf", fields: .object([("name", .string("Golf")), ("year", .number(2019))]),
            recordedAt: 1, origin: "cli")
        let seq = try w.append(.entry(vehicle))
        let trip = w.nextTripID()
        try w.append(.tripStarted(TripStarted(id: trip, vehicleID: "golf", reason: "manual", monotonicNanoseconds: 0, bootID: "b")))
        try w.append(.points(trip, (0..<3).map(testPoint)))
        let void = UserEntry(type: "vehicle", action: .void, subject: "golf", origin: "cli")
        try w.append(.entry(void))
        try w.append(.tripEnded(TripEnded(id: trip, reason: "manual", summary: .zero)))
        let huge = UserEntry(
            type: "fuel", action: .add, subject: "x", fields: .object([("note", .string(String(repeating: "a", count: 20_000)))]),
            origin: "cli")
        #expect(throws: JournalError.self) { try w.append(.entry(huge)) }
        try await w.close()
        let entries = try JournalReader(directory: dir.journal).entries().compactMap { e -> (UInt64, UserEntry)? in
            if case .entry(let u) = e.record { return (e.sequence, u) } else { return nil }
        }
        #expect(entries.map(\.1) == [vehicle, void])
        #expect(entries[0].0 == seq)
        #expect(try JournalReader(directory: dir.journal).trips().count == 1)
    }

    @Test func tornTailIsSetAsideAtOpen() async throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let config = JournalConfiguration(directory: dir.journal, stateDirectory: dir.path)
        let w = try JournalWriter.open(config, logger: quietLogger)
        let id = w.nextTripID()
        try w.append(.tripStarted(TripStarted(id: id, reason: "manual", monotonicNanoseconds: 0, bootID: "b")))
        try w.append(.points(id, (0..<50).map(testPoint)))
        try await w.sync()
        let durable = w.durableSequence
        // Simulate the crash: garbage after the last record of the active (unsealed) segment.
        let active = try #require(SegmentName.segments(in: try FileManager.default.contentsOfDirectory(atPath: dir.journal)).last)
        let path = dir.journal + "/" + active.fileName
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let end = SegmentContents.parse(bytes, name: active).validEnd
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seek(toOffset: UInt64(end))
        try handle.write(contentsOf: Data([0x12, 0x34, 0x56, 0x78, 0x40, 0x00, 0x01, 0x99]))
        try handle.close()
        // The first writer is still "running" (its lock): read-only checks first.
        #expect(!verifyJournal(directory: dir.journal, stateDirectory: dir.path).ok)
        #expect(try JournalReader(directory: dir.journal).points(of: id).count == 50)
        try await w.close()
        // close() sealed at its own offset, over the garbage; rebuild the crashed state (the
        // bytes captured before plus the torn tail) in a second directory and open that.
        let dir2 = TempDir()
        defer { dir2.cleanup() }
        try FileManager.default.createDirectory(atPath: dir2.journal, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: dir.path + "/journal.key", toPath: dir2.path + "/journal.key")
        try FileManager.default.copyItem(atPath: dir.path + "/journal.pub", toPath: dir2.path + "/journal.pub")
        var torn = Array(bytes[0..<end])
        torn += [0x12, 0x34, 0x56, 0x78, 0x40, 0x00, 0x01, 0x99]
        try Data(torn).write(to: URL(fileURLWithPath: dir2.journal + "/" + active.fileName))
        let w2 = try JournalWriter.open(JournalConfiguration(directory: dir2.journal, stateDirectory: dir2.path), logger: quietLogger)
        let r = w2.recovery
        #expect(r.wasUnclean)
        #expect(r.bytesDiscarded == 8)
        #expect(r.brokenFile == active.fileName + ".broken")
        #expect(r.closedTrips == [id])
        #expect(r.lastSequence == durable + 1)
        #expect(FileManager.default.fileExists(atPath: dir2.journal + "/" + active.fileName + ".broken"))
        try await w2.close()
        let report = verifyJournal(directory: dir2.journal, stateDirectory: dir2.path)
        #expect(report.ok, "\(String(describing: report.problem))")
        #expect(try JournalReader(directory: dir2.journal).trips().first?.endReason == "recovered")
    }

    /// `logbook verify`: exit 0 and a summary for a good journal, exit 1 naming the bad record.
    @Test func verifyCommandExitCodes() async throws {
        let dir = TempDir()
        defer { dir.cleanup() }
        let w = try JournalWriter.open(JournalConfiguration(directory: dir.journal, stateDirectory: dir.path), logger: quietLogger)
        let id = w.nextTripID()
        try w.append(.tripStarted(TripStarted(id: id, reason: "manual", monotonicNanoseconds: 0, bootID: "b")))
        try w.append(.points(id, (0..<100).map(testPoint)))
        try w.append(.tripEnded(TripEnded(id: id, reason: "manual", summary: .zero)))
        try await w.close()
        let exe = URL(fileURLWithPath: KillTests.writerPath).deletingLastPathComponent().appendingPathComponent("logbook").path
        func run() throws -> (Int32, String) {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: exe)
            p.arguments = ["verify", "--state-dir", dir.path]
            let out = Pipe()
            p.standardOutput = out
            try p.run()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            return (p.terminationStatus, text)
        }
        let (ok, text) = try run()
        #expect(ok == 0, "\(text)")
        #expect(text.contains("points: 100"))
        #expect(text.contains("OK"))
        let seg = try #require(SegmentName.segments(in: try FileManager.default.contentsOfDirectory(atPath: dir.journal)).first)
        let path = dir.journal + "/" + seg.fileName
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[bytes.count / 2] ^= 0x10
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let (bad, text2) = try run()
        #expect(bad == 1, "\(text2)")
        #expect(text2.contains("PROBLEM: \(seg.fileName) at offset"))
    }
}
