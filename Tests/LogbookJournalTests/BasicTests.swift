// SPDX-License-Identifier: MIT
import Crypto
import Foundation
import LogbookCore
import Testing

@testable import LogbookJournal

@Suite struct CRC32CTests {
    @Test func knownVectors() {
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
        // RFC 3720 B.4
        #expect(CRC32C.checksum([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
        #expect(CRC32C.checksum([UInt8](repeating: 0xFF, count: 32)) == 0x62A8_AB43)
        #expect(CRC32C.checksum((0..<32).map { UInt8($0) }) == 0x46DD_794E)
        #expect(CRC32C.checksum((0..<32).map { UInt8(31 - $0) }) == 0x113F_DB5C)
    }

    @Test func incrementalAndMask() {
        let data = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let whole = CRC32C.checksum(data)
        let a = data.withUnsafeBytes { CRC32C.update(0, UnsafeRawBufferPointer(rebasing: $0[0..<333])) }
        let b = data.withUnsafeBytes { CRC32C.update(a, UnsafeRawBufferPointer(rebasing: $0[333...])) }
        #expect(whole == b)
        #expect(CRC32C.unmask(CRC32C.mask(whole)) == whole)
        #expect(CRC32C.mask(whole) != whole)
    }
}

@Suite struct CodecTests {
    @Test func recordsRoundTrip() throws {
        let records: [JournalRecord] = [
            .tripStarted(TripStarted(id: TripID(7), vehicleID: "golf", reason: "power:ignition",
                gpsTime: GPSTime(seconds: 1_790_000_000), monotonicNanoseconds: 42, bootID: "b")),
            .points(TripID(7), (0..<5).map(testPoint)),
            .points(TripID(7), [PointCodec.quantised(TripPoint(time: GPSTime(nanoseconds: 1), latitude: 1, longitude: 2))]),
            .signal(SignalEvent(source: "power:ignition", vehicleID: nil, on: true, gpsTime: nil, monotonicNanoseconds: 9)),
            .tripEnded(TripEnded(id: TripID(7), reason: "manual", gpsTime: nil,
                summary: TripSummary(distance: 1, duration: 2, maxSpeed: 3, averageSpeed: 0.5, pointCount: 6), discarded: true,
                monotonicNanoseconds: 10)),
            .entry(UserEntry(
                type: "fuel", action: .amend, subject: "42",
                fields: .object([("litres", .number(41.5)), ("station", .string("Zürich Süd")), ("full", .bool(true))]),
                recordedAt: 1_790_000_000_000_000_000, origin: "cli")),
            .entry(UserEntry(type: "vehicle", action: .void, subject: "golf", origin: "config")),
            .tripReopened(TripReopened(
                id: TripID(7), vehicleID: "golf", startReason: "service", startTime: GPSTime(seconds: 1_790_000_000),
                previousEndReason: "recovered", from: testPoint(4).time, gpsTime: GPSTime(seconds: 1_790_000_090),
                summary: TripSummary(distance: 812.5, duration: 60, maxSpeed: 14, averageSpeed: 13.5, pointCount: 5),
                lastPoint: PointCodec.quantised(testPoint(4)), monotonicNanoseconds: 11, bootID: "b2")),
            .tripReopened(TripReopened(
                id: TripID(8), vehicleID: nil, startReason: "power:ACAD", startTime: nil, previousEndReason: "shutdown",
                from: nil, gpsTime: nil, summary: .zero, lastPoint: nil, monotonicNanoseconds: 0, bootID: "")),
        ]
        for (i, r) in records.enumerated() {
            let bytes = RecordCodec.encode(.user(r), sequence: UInt64(i + 1))
            let back = try RecordCodec.decode(bytes)
            #expect(back.sequence == UInt64(i + 1))
            #expect(back.record == .user(r))
        }
    }

    @Test func pointIs26BytesAndNaNSurvives() throws {
        var w = ByteWriter()
        PointCodec.encode(TripPoint(time: GPSTime(nanoseconds: 5), latitude: .nan, longitude: 181, speed: .nan), into: &w)
        #expect(w.bytes.count == 26)
        var r = ByteReader(w.bytes)
        let p = try PointCodec.decode(&r)
        #expect(p.latitude.isNaN)
        #expect(p.longitude == 181)
        #expect(p.speed == nil)
        #expect(p.altitude == nil)
    }

    @Test func framingSplitsAcrossBlocks() {
        var out: [UInt8] = []
        var pos = 0
        let payloads = (0..<40).map { i in [UInt8](repeating: UInt8(i), count: 100 + i * 97) }
        for p in payloads { pos = Framing.frame(p, at: pos, into: &out) }
        #expect(out.count == pos)
        #expect(pos > 2 * Framing.blockSize)
        var got: [[UInt8]] = []
        let (end, stop) = Framing.scan(out) { got.append($0.payload); return true }
        #expect(got == payloads)
        #expect(end == pos)
        #expect(stop == .clean)
    }
}
