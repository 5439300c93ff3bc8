// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import LogbookTestSupport
import Testing

/// Issue 28, item 6: one fix dated in the future must neither be recorded nor cost the
/// genuine fixes after it. The Munich drive is replayed through a real gpsd twice: as
/// recorded, and with one epoch's RMC dated a year ahead and another epoch's RMC replaced by
/// a ZDA of the year 2100 (gpsd reports both as TPVs with those dates). The second run must
/// record exactly what the first did, less those two epochs, and count both as `futureTime`.
@Suite(.serialized) struct FutureFixTests {
    /// Epochs (RMC sentences, 1-based) that are tampered with.
    static let yearAheadEpoch = 100
    static let year2100Epoch = 300
    static let speed = 100.0

    /// The Munich log with the two hostile epochs; returns its path.
    static func tamperedLog(in dir: TemporaryDirectory) throws -> String {
        let text = try String(contentsOfFile: TestPaths.gpsLog("munich-gps.nmea"), encoding: .utf8)
        var out: [String] = []
        var epoch = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            guard line.hasPrefix("$GPRMC,"), line.contains(",A,") else {
                out.append(line)
                continue
            }
            epoch += 1
            let fields = line.split(separator: "*")[0].dropFirst().split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if epoch == yearAheadEpoch {
                var f = fields
                let date = f[9]  // ddmmyy
                f[9] = String(date.prefix(4)) + String(format: "%02d", (Int(date.suffix(2)) ?? 0) + 1)
                out.append(sentence(f.joined(separator: ",")))
            } else if epoch == year2100Epoch {
                // gpsd takes ZDA's four-digit year; the next RMC's date brings it back.
                let date = fields[9]
                out.append(sentence("GPZDA,\(fields[1]),\(date.prefix(2)),\(date.dropFirst(2).prefix(2)),2100,00,00"))
            } else {
                out.append(line)
            }
        }
        let path = dir.file("munich-tampered.nmea")
        try out.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func sentence(_ body: String) -> String {
        let sum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
        return "$" + body + "*" + String(format: "%02X", sum)
    }

    struct Run {
        var pointTimes: Set<Int64>
        var latest: Int64
        var fixes: Int
        var rejected: Int
        var byReason: [String: Int]
    }

    /// Replays `log` into a daemon recording one trip (a `service` source); what it recorded.
    static func record(_ log: String) async throws -> Run {
        let dir = try TemporaryDirectory("future")
        defer { dir.remove() }
        let gpsd = try GPSDReplay(log: log, realtime: speed)
        defer { gpsd.stop() }
        let config = dir.file("logbookd.toml")
        try """
            state_dir = "\(dir.file("state"))"
            runtime_dir = "\(dir.file("run"))"
            [gpsd]
            address = "\(gpsd.address)"
            [[vehicle]]
            id = "golf"
            name = "Golf"
            [[source]]
            type = "service"
            vehicle = "golf"

            """.write(toFile: config, atomically: true, encoding: .utf8)
        // The default margin ([trip] future_fix_margin_s = 300). gpsd dates the drive 2028: on
        // a machine whose clock is synchronised that is years ahead of it, so the system clock
        // is not consulted here (the environment's form of [trip] trust_system_clock = false).
        let d = try DaemonProcess(
            arguments: ["--config", config],
            environment: ["LOGBOOKD_DEBUG_CLOCK_SCALE": String(speed), "LOGBOOKD_TRIP_TRUST_SYSTEM_CLOCK": "false"])
        await gpsd.waitUntilFinished(timeout: .seconds(150))
        // The daemon has read everything gpsd sent once live.json shows it disconnected.
        var deadline = TestDeadline(.seconds(20))
        var live: [String: Any]?
        while !deadline.passed {
            live = readJSONFile(dir.file("run/live.json"))
            if (live?["gps"] as? [String: Any])?["connected"] as? Bool == false, (live?["gps"] as? [String: Any])?["fixes"] as? Int ?? 0 > 0 { break }
            await deadline.sleep(for: .milliseconds(50))
        }
        let gps = try #require(live?["gps"] as? [String: Any], "\(d.log)")
        _ = await d.stop()
        let reader = try JournalReader(directory: dir.file("state/journal"))
        var times: Set<Int64> = []
        for trip in try reader.trips() {
            for p in try reader.points(of: trip.id) { times.insert(p.time.nanoseconds) }
        }
        return Run(
            pointTimes: times, latest: times.max() ?? 0, fixes: gps["fixes"] as? Int ?? -1, rejected: gps["rejected"] as? Int ?? -1,
            byReason: (gps["rejected_by_reason"] as? [String: Int]) ?? [:])
    }

    @Test(.timeLimit(.minutes(5)))
    func aFutureFixIsRefusedAndCountedAndTheGenuineOnesAfterItAreRecorded() async throws {
        let dir = try TemporaryDirectory("future-log")
        defer { dir.remove() }
        let baseline = try await Self.record(TestPaths.gpsLog("munich-gps.nmea"))
        let tampered = try await Self.record(try Self.tamperedLog(in: dir))
        let in2029 = GPSTime(seconds: 1_861_920_000).nanoseconds  // 2029-01-01
        print("future-fix: baseline \(baseline.fixes) fixes, \(baseline.pointTimes.count) points; tampered \(tampered.fixes) fixes, "
              + "\(tampered.pointTimes.count) points, rejected \(tampered.rejected) \(tampered.byReason.filter { $0.value > 0 })")
        #expect(tampered.latest < in2029, "a point dated \(GPSTime(nanoseconds: tampered.latest)) was recorded")
        // Two epochs replaced by hostile ones: two fixes fewer, both refused as futureTime,
        // nothing else refused that the untouched drive did not refuse.
        #expect(tampered.fixes == baseline.fixes - 2)
        #expect(tampered.byReason["futureTime"] == 2)
        var others = tampered.byReason
        others["futureTime"] = 0
        #expect(others == baseline.byReason, "baseline \(baseline.byReason)")
        #expect(tampered.rejected == baseline.rejected + 2)
        // Every genuine point recorded: the baseline's, less at most the two replaced epochs.
        let missing = baseline.pointTimes.subtracting(tampered.pointTimes)
        #expect(missing.count <= 2, "lost \(missing.count) genuine points")
        #expect(tampered.pointTimes.isSubset(of: baseline.pointTimes))
    }
}
