// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookRecords
import LogbookOBD
import LogbookTestSupport
import Logging
import Testing

/// `OBDSource` against the real ELM327-emulator (PyPI) on a loopback TCP port and on a pty.
/// Expected values are the hand-decoded frames of ``ReplyParserTests``, never the emulator's
/// own decoding.
@Suite(.serialized) struct EmulatorTests {
    /// Short intervals so the tests see every kind of read within seconds.
    static var plan: OBDPollingPlan {
        var p = OBDPollingPlan()
        p.rpmInterval = 0.3
        p.engineOffInterval = 0.5
        p.fuelInterval = 2
        p.odometerInterval = 2
        p.troubleCodeInterval = 2
        p.voltageInterval = 2
        p.parkedVoltageInterval = 1
        p.silentRetryInterval = 1
        p.engineOffAfter = 1
        p.commandTimeout = 3
        p.searchTimeout = 8
        return p
    }

    static let logger = Logger(label: "obd-test") { _ in SwiftLogNoOpLogHandler() }

    func source(_ endpoint: OBDEndpoint, _ collector: EventCollector) -> OBDSource {
        let s = OBDSource(name: "test", endpoint: endpoint, plan: Self.plan, logger: Self.logger)
        #expect(s.start(collector.deliver))
        return s
    }

    @Test(.timeLimit(.minutes(2)))
    func tcpCarFaultCodesAndEngineOff() async throws {
        let elm = try ELMEmulator(scenario: "car", transport: .tcp)
        let events = EventCollector()
        let obd = source(try #require(OBDEndpoint.tcp(parsing: elm.address)), events)
        defer { obd.stop() }
        #expect(await events.wait(30) { $0.connectedInfo != nil && $0.contains(.engine(running: true)) })
        let connectedAfter = events.elapsed
        let info = try #require(events.all.connectedInfo)
        #expect(info.identity == "ELM327 v1.5")
        #expect(info.vin?.text == "WP0ZZZ99ZTS390000" && info.vinProblem == nil)
        // 0100 BE3FA813: 0C and 0D; 0120 …2F…; 01A0 04200000: A6.
        #expect(info.supported.contains(0x0C) && info.supported.contains(0x0D) && info.supported.contains(0x2F) && info.supported.contains(0xA6))
        #expect(events.all.rpms.first == 1303.75)  // 41 0C 14 5F
        #expect(await events.wait(10) { $0.readings.contains { $0.moment == .engineStart } })
        let start = try #require(events.all.readings.first { $0.moment == .engineStart })
        #expect(start.voltage == 13.1)
        #expect(start.fuelPercent.map { abs($0 - 200.0 / 3) < 1e-9 } == true)  // 41 2F AA
        #expect(start.storedCodes == [] && start.pendingCodes == [])
        // The emulator's 01A6 reply is 61 A6 00 00 EA 5C: refused, never an odometer.
        #expect(start.odometerKm == nil)
        #expect(!events.all.readings.contains { $0.odometerKm != nil })
        let refused = try #require(events.all.counters)
        #expect(refused.rejected >= 1 && refused.lastRejection == .wrongService)

        // Fault codes injected through the emulator's console: P0133 stored, P0420 pending.
        #expect(elm.run("elm.obd_message.DTC_STORED[:] = ['0133']; elm.obd_message.DTC_PENDING[:] = ['0420']"))
        #expect(await events.wait(10) { $0.readings.contains { $0.storedCodes?.map(\.description) == ["P0133"] } })
        #expect(await events.wait(10) { $0.readings.contains { $0.pendingCodes?.map(\.description) == ["P0420"] } })

        #expect(elm.send("scenario engineoff", confirmedBy: "switched to 'engineoff'"))
        let switched = events.elapsed
        #expect(await events.wait(15) { $0.contains(.engine(running: false)) })
        let stoppedAfter = events.elapsed - switched
        #expect(await events.wait(30) { $0.readings.contains { $0.moment == .engineStop } })
        let stop = try #require(events.all.readings.first { $0.moment == .engineStop })
        // ATRV still answers (the adapter's own reading: the emulator's n-th is 13.0 + 0.1·|9 − (n+9) mod 18| V);
        // the car does not: NO DATA is no answer, not "no codes".
        #expect(stop.voltage.map { (13.0...13.9).contains($0) } == true && stop.fuelPercent == nil && stop.storedCodes == nil)
        print(String(format: "obd: emulator tcp: car answering with its VIN in %.1f s; engine off %.1f s after the switch to engineoff; %d replies refused (odometer service byte 0x61)",
                     connectedAfter, stoppedAfter, events.all.counters?.rejected ?? 0))
        elm.kill()
    }

    @Test(.timeLimit(.minutes(2)))
    func ptyFromEngineOffToCar() async throws {
        let elm = try ELMEmulator(scenario: "engineoff", transport: .pty)
        let device = try #require(elm.device)
        let events = EventCollector()
        let obd = source(.serial(device: device, baud: 38_400), events)
        defer { obd.stop() }
        // ATZ … ATSP0 answered, 0100 SEARCHING… UNABLE TO CONNECT: the adapter, not the car.
        #expect(await events.wait(30) { $0.contains(.adapterReady(identity: "ELM327 v1.5")) })
        #expect(events.all.connectedInfo == nil && !events.all.contains(.engine(running: true)))
        #expect(await events.wait(10) { $0.readings.contains { $0.voltage == 13.1 } })  // ATRV while parked
        #expect(elm.send("scenario car", confirmedBy: "switched to 'car'"))
        #expect(await events.wait(30) { $0.connectedInfo?.vin?.text == "WP0ZZZ99ZTS390000" && $0.contains(.engine(running: true)) })
        #expect(events.all.rpms.contains(1303.75))
        elm.kill()
        #expect(await events.wait(10) { $0.lost >= 1 })  // the pty's other side is gone
    }

    @Test(.timeLimit(.minutes(3)))
    func killedRestartedSlowedAndGarbage() async throws {
        var elm = try ELMEmulator(scenario: "car", transport: .tcp)
        let port = elm.port
        let events = EventCollector()
        let obd = source(try #require(OBDEndpoint.tcp(parsing: elm.address)), events)
        defer { obd.stop() }
        #expect(await events.wait(30) { $0.contains(.engine(running: true)) })

        // Unplugged: killed mid-session.
        elm.kill()
        let killed = events.elapsed
        #expect(await events.wait(10) { $0.lost >= 1 })
        let lostAfter = events.elapsed - killed
        let before = events.all.count
        elm = try ELMEmulator(scenario: "car", transport: .tcp, port: port)
        let restarted = events.elapsed
        #expect(await events.wait(30) { Array($0.dropFirst(before)).connectedInfo != nil && Array($0.dropFirst(before)).contains(.engine(running: true)) })
        let backAfter = events.elapsed - restarted

        // Slowed to 2 s a reply: still answered (nothing times out at 3 s), just slower (a
        // round of rpm, speed, fuel, odometer, codes and voltage now takes 14 s).
        #expect(elm.send("delay 2", confirmedBy: "Delaying each command of 2.0 seconds"))
        let slowFrom = events.all.count
        let timeoutsBefore = events.all.counters?.timeouts ?? 0
        #expect(await events.wait(40) { Array($0.dropFirst(slowFrom)).rpms.count >= 2 })
        #expect((events.all.counters?.timeouts ?? 0) == timeoutsBefore)
        #expect(Array(events.all.dropFirst(slowFrom)).lost == 0)
        // Hung: 5 s a reply is past the 3 s timeout: three among six requests and the link is renewed.
        #expect(elm.send("delay 5", confirmedBy: "Delaying each command of 5.0 seconds"))
        let lostBefore = events.all.lost
        #expect(await events.wait(30) { $0.lost > lostBefore })
        #expect((events.all.counters?.timeouts ?? 0) >= timeoutsBefore + 3)
        #expect(elm.send("delay 0", confirmedBy: "Delay removed"))

        // Garbage: rpm replies that are not hex, a babbling speed reply (10,000 bytes).
        #expect(await events.wait(30) { $0.linkUps >= 3 && Array($0.dropFirst(slowFrom)).contains(.engine(running: true)) })
        let garbageFrom = events.all.count
        let rejectedBefore = events.all.counters?.rejected ?? 0
        #expect(elm.run("emulator.answer['RPM'] = '<writeln>41 0C ZZ 9</writeln>'"))
        #expect(elm.run("emulator.answer['SPEED'] = '<string>' + 'A' * 10000 + '</string>'"))
        #expect(await events.wait(20) { ($0.counters?.rejected ?? 0) >= rejectedBefore + 4 })
        // At most one value decoded from a reply that came before the injection took effect.
        let late = Array(events.all.dropFirst(garbageFrom))
        #expect(late.rpms.count <= 1)
        #expect(late.filter { if case .speed = $0 { true } else { false } }.count <= 1)
        #expect(late.contains(.engine(running: false)) == false)  // garbage is no engine stop
        let c = try #require(events.all.counters)
        print(String(format: "obd: emulator killed: adapter lost after %.1f s, car answering again %.1f s after the restart; slowed to 2 s a reply: no timeout; 5 s a reply: link renewed, %d timeouts in all; garbage: %d replies refused, no value from them",
                     lostAfter, backAfter, c.timeouts - timeoutsBefore, c.rejected - rejectedBefore))
        elm.kill()
    }

    @Test(.timeLimit(.minutes(2)))
    func aVINWithAWrongCheckDigitIsRefused() async throws {
        let elm = try ELMEmulator(scenario: "car", transport: .tcp)
        // 1M8GDM9A1KP042788: North American, position 9 should be X.
        #expect(elm.run("emulator.answer['VIN'] = elm.obd_message.PA('01 31 4D 38 47 44 4D 39 41 31 4B 50 30 34 32 37 38 38')"))
        let events = EventCollector()
        let obd = source(try #require(OBDEndpoint.tcp(parsing: elm.address)), events)
        defer { obd.stop() }
        #expect(await events.wait(30) { $0.connectedInfo != nil })
        let info = try #require(events.all.connectedInfo)
        #expect(info.vin == nil && info.vinProblem == .vinCheckDigit)
        elm.kill()
    }

    @Test(.timeLimit(.minutes(1)))
    func aDeviceThatDoesNotExistYetIsWaitedFor() async throws {
        let dir = try TemporaryDirectory("obdw")
        defer { dir.remove() }
        let events = EventCollector()
        let path = dir.file("rfcomm0")
        let obd = source(.serial(device: path, baud: 38_400), events)
        // The thread keeps turning (looking for the device) for a second and reports nothing.
        let first = obd.lastHeartbeat
        var deadline = TestDeadline(.seconds(10))
        while obd.lastHeartbeat - first < 1_000_000_000, !deadline.passed { await deadline.sleep(for: .milliseconds(50)) }
        #expect(obd.lastHeartbeat - first >= 1_000_000_000)
        #expect(events.all.isEmpty)  // nothing to report, no error
        let heartbeat = obd.lastHeartbeat
        // The device appears (a pty the emulator serves, linked where the config points).
        let elm = try ELMEmulator(scenario: "car", transport: .pty)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: try #require(elm.device))
        #expect(await events.wait(30) { $0.connectedInfo?.vin != nil })
        #expect(obd.lastHeartbeat > heartbeat)
        obd.stop()
        elm.kill()
    }
}
