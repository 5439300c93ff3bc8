// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookGPSD
import LogbookTestSupport
import Testing

/// The libgps adapter against a real gpsd replaying real recorded drives.
@Suite struct GPSDReplayTests {
    /// Replays a whole log at full speed and returns what the source delivered.
    func replay(_ log: String) async throws -> FixCollector {
        let gpsd = try GPSDReplay(log: TestPaths.gpsLog(log))
        defer { gpsd.stop() }
        let collector = FixCollector(address: gpsd.address)
        await collector.during {
            let connected = await collector.wait(timeout: .seconds(20)) { $0.contains { $0.isConnect } }
            #expect(connected, "never connected to gpsd at \(gpsd.address)")
            await gpsd.waitUntilFinished()
            // gpsd exits after the log: the source must notice and report it.
            let ended = await collector.wait(timeout: .seconds(10)) { $0.contains { $0.isDisconnect } }
            #expect(ended, "no disconnect reported after gpsd exited")
        }
        return collector
    }

    @Test func switzerlandDeliversEveryUniqueFixExactlyOnce() async throws {
        let c = try await replay("20100403_Z205_Switzerland.txt")
        let fixes = c.fixes
        // The log has 10,327 status-A RMC epochs; gpsd repeats 1,159 of them as a second TPV.
        #expect(fixes.count == 10_327)
        #expect(Set(fixes.map(\.time)).count == fixes.count)
        let stats = c.source.statistics
        #expect(stats.duplicates > 1_000, "gpsd's repeated TPVs should have been seen and dropped")
        #expect(stats.fixes == fixes.count)
        print("gpsd-replay: switzerland: \(fixes.count) fixes, \(stats.duplicates) duplicate TPVs, \(stats.noFix) no-fix TPVs, \(stats.invalid) invalid")
        #expect(fixes.allSatisfy { $0.mode.rawValue >= 2 && abs($0.latitude - 47) < 1.5 && abs($0.longitude - 8) < 2 })
    }

    @Test func munichReportsNoFixPeriodsAndSurvivesTimeGoingBackwards() async throws {
        let c = try await replay("munich-gps.nmea")
        let fixes = c.fixes
        #expect(fixes.count == 1_801)
        #expect(Set(fixes.map(\.time)).count == fixes.count, "a fix time was delivered twice")
        // Every no-fix report is counted; one is handed over per change of mode (a parked
        // receiver's reports are not news), so each no-fix period arrives, and none twice.
        #expect(c.source.statistics.noFix >= 20, "the log's no-fix reports, got \(c.source.statistics.noFix)")
        #expect(c.noFixCount >= 5, "the log's no-fix periods must arrive as noFix, got \(c.noFixCount)")
        let modes = c.all.compactMap { e -> FixMode? in
            switch e {
            case .fix(let f): f.mode
            case .noFix(let mode, _): mode
            default: nil
            }
        }
        let repeated = zip(c.all, c.all.dropFirst()).filter { pair in
            if case .noFix(let a, _) = pair.0, case .noFix(let b, _) = pair.1 { return a == b }
            return false
        }.count
        #expect(repeated == 0 && !modes.isEmpty, "a no-fix report was handed over without a change of mode")
        // The log jumps back onto an epoch already delivered: dropped, not delivered twice.
        #expect(c.source.statistics.duplicates >= 1)
        let backwards = zip(fixes, fixes.dropFirst()).filter { $1.time < $0.time }.count
        print("gpsd-replay: munich: \(fixes.count) fixes, \(c.noFixCount) no-fix reports, \(backwards) backward steps delivered")
        // No no-fix report may carry a position: they are not fixes.
        #expect(fixes.allSatisfy { $0.mode == .twoD || $0.mode == .threeD })
    }

    @Test func haicomStartsWithoutFixOrTimeAndYieldsNoBogusFix() async throws {
        let c = try await replay("haicom-305N.log")
        let events = c.all
        let firstFix = try #require(events.firstIndex { if case .fix = $0 { true } else { false } })
        let before = events[..<firstFix].filter { if case .noFix = $0 { true } else { false } }
        #expect(!before.isEmpty, "the log starts without a fix")
        let fixes = c.fixes
        #expect(fixes.count == 67)
        let year2000 = GPSTime(seconds: 946_684_800)
        #expect(fixes.allSatisfy { $0.time > year2000 && $0.latitude.isFinite && $0.longitude.isFinite })
    }

    @Test func reconnectsWithinTwoSecondsWhenGPSDIsRestarted() async throws {
        let first = try GPSDReplay(log: TestPaths.gpsLog("20100403_Z205_Switzerland.txt"), realtime: 200)
        let port = first.port
        let collector = FixCollector(address: first.address)
        try await collector.during {
            #expect(await collector.wait(timeout: .seconds(20)) { $0.filter { if case .fix = $0 { true } else { false } }.count >= 50 })
            first.killGPSD()
            #expect(await collector.wait(timeout: .seconds(5)) { $0.contains { $0.isDisconnect } })
            let fixesBefore = collector.fixes.count
            // A new gpsd on the same port, resuming further into the drive.
            let second = try GPSDReplay(log: TestPaths.gpsLog("20100403_Z205_Switzerland.txt"), realtime: 200, port: port, startLine: 20_000)
            defer { second.stop() }
            // From the new gpsd listening (starting it is the test's cost, not the reader's):
            // the reader's retry backoff is capped at 1 s, so 2 s hold on a busy machine too.
            let restart = ContinuousClock.now
            #expect(await collector.wait(timeout: .seconds(5)) { $0.filter(\.isConnect).count >= 2 })
            let reconnectedAt = try #require(collector.timed.last { $0.0.isConnect }?.1)
            let delay = restart.duration(to: reconnectedAt)
            print("gpsd-replay: reconnect after gpsd restart (from the new gpsd listening): \(delay)")
            #expect(delay < .seconds(2))
            #expect(await collector.wait(timeout: .seconds(20)) { _ in collector.fixes.count > fixesBefore + 50 })
        }
        first.stop()
    }
}
