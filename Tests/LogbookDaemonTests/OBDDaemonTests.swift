// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import LogbookRecords
import LogbookTestSupport
import Testing

/// The built logbookd with an `obd` source against the real ELM327-emulator, while a real
/// gpsd replays a real drive: trips started and ended by the engine, the VIN's vehicle, fault
/// codes, odometer, battery — and recording that never stalls while the adapter misbehaves.
@Suite(.serialized) struct OBDDaemonTests {
    /// One VIN (the emulator rotates three on every request), P0133 and P0420 stored, and the
    /// odometer with the right service byte (the emulator's own says 61): 41 A6 00 00 EA 5C.
    static func prepare(_ elm: ELMEmulator) -> Bool {
        elm.run("emulator.answer['VIN'] = elm.obd_message.PA('01 57 50 30 5A 5A 5A 39 39 5A 54 53 33 39 30 30 30 30')")
            && elm.run("emulator.answer['ODOMETER'] = elm.obd_message.HD('7E8') + elm.obd_message.SZ('06') + elm.obd_message.DT('41 A6 00 00 EA 5C')")
            && elm.run("elm.obd_message.DTC_STORED[:] = ['0133', '0420']")
    }

    func config(_ dir: TemporaryDirectory, gpsd: String, elm: String, grace: Int) throws -> String {
        let path = dir.file("logbookd.toml")
        try """
            state_dir = "\(dir.file("state"))"
            runtime_dir = "\(dir.file("run"))"
            [gpsd]
            address = "\(gpsd)"
            [journal]
            commit_interval_s = 1
            [trip]
            power_off_grace_s = \(grace)
            [hooks]
            on_fault_code = "env | grep ^LOGBOOK_ | sort >> \(dir.file("faults.env")); echo --- >> \(dir.file("faults.env"))"
            on_low_battery = "env | grep ^LOGBOOK_ | sort > \(dir.file("battery.env"))"
            [[vehicle]]
            id = "golf"
            name = "Golf"
            vin = "WP0ZZZ99ZTS390000"
            tank_l = 50
            [[vehicle]]
            id = "van"
            [[source]]
            type = "obd"
            name = "elm"
            address = "\(elm)"
            vehicle = "van"
            """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func live(_ dir: TemporaryDirectory) -> [String: Any]? { readJSONFile(dir.file("run/live.json")) }
    func obd(_ dir: TemporaryDirectory) -> [String: Any]? { (live(dir)?["obd"] as? [[String: Any]])?.first }
    func trip(_ dir: TemporaryDirectory, _ key: String = "trip") -> [String: Any]? { live(dir)?[key] as? [String: Any] }
    func text(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    /// `logbook status` as a person reads it.
    func status(_ dir: TemporaryDirectory) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: TestPaths.product("logbook"))
        p.arguments = ["status", "--runtime-dir", dir.file("run")]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test(.timeLimit(.minutes(4)))
    func aDriveFromCarToEngineOff() async throws {
        let dir = try TemporaryDirectory("obdd")
        defer { dir.remove() }
        let elm = try ELMEmulator(scenario: "car", transport: .tcp)
        #expect(Self.prepare(elm))
        let gpsd = try GPSDReplay(log: TestPaths.gpsLog("20100403_Z205_Switzerland.txt"), realtime: 20)
        defer { gpsd.stop() }
        let daemon = try DaemonProcess(arguments: ["--config", try config(dir, gpsd: gpsd.address, elm: elm.address, grace: 3)])
        let monitor = LiveAgeMonitor(path: dir.file("run/live.json"))
        defer { monitor.stop() }

        // The engine turns: a trip by obd:elm, for the vehicle with the VIN (not the source's "van").
        #expect(await eventually(.seconds(30)) { trip(dir)?["start_reason"] as? String == "obd:elm" }, "log: \(daemon.log.suffix(3000))")
        #expect((trip(dir)?["vehicle"] as? [String: Any])?["id"] as? String == "golf")
        #expect(await eventually(.seconds(20)) { (obd(dir)?["fault_codes"] as? [[String: Any]])?.count == 2 && obd(dir)?["odometer_km"] as? Double == 5999.6 })
        let block = try #require(obd(dir))
        #expect(block["vin"] as? String == "WP0ZZZ99ZTS390000" && block["vin_known"] as? Bool == true && block["vehicle"] as? String == "golf")
        #expect(block["manufacturer"] as? String == "Porsche" && block["model_year"] as? Int == 1996)
        #expect(block["fuel_percent"] as? Double == 66.7 && block["engine_running"] as? Bool == true)
        #expect(block["pids"] as? [String] == ["010C", "010D", "012F", "01A6"])
        let shown = try status(dir)
        #expect(shown.contains("fault P0133 (stored): O2 Sensor Circuit Slow Response (Bank 1 Sensor 1)"), "\(shown)")
        #expect(shown.contains("fault P0420 (stored): Catalyst System Efficiency Below Threshold (Bank 1)"), "\(shown)")
        #expect(shown.contains("VIN WP0ZZZ99ZTS390000 (Porsche, 1996)") && shown.contains("odometer 5999.6 km"), "\(shown)")
        let faults = dir.file("faults.env")
        #expect(await eventually(.seconds(20)) { text(faults).components(separatedBy: "---").count >= 3 })
        for code in ["P0133", "P0420"] { #expect(text(faults).contains("LOGBOOK_FAULT_CODE=\(code)")) }
        #expect(text(faults).contains("LOGBOOK_FAULT_DESCRIPTION=O2 Sensor Circuit Slow Response (Bank 1 Sensor 1)"))
        #expect(text(faults).contains("LOGBOOK_FAULT_STATE=new") && text(faults).contains("LOGBOOK_VEHICLE=golf") && text(faults).contains("LOGBOOK_VIN=WP0ZZZ99ZTS390000"))

        // Parked with a weak battery: the engine stops, the adapter reads 11.2 V.
        #expect(elm.run("emulator.answer['AT_R_VOLT'] = '<writeln>11.2V</writeln>'"))
        #expect(elm.send("scenario engineoff", confirmedBy: "switched to 'engineoff'"))
        #expect(await eventually(.seconds(30)) { trip(dir, "last_trip")?["end_reason"] as? String == "obd:elm" }, "log: \(daemon.log.suffix(3000))")
        let battery = dir.file("battery.env")
        #expect(await eventually(.seconds(20)) { text(battery).contains("LOGBOOK_BATTERY_V=11.2") })
        #expect(text(battery).contains("LOGBOOK_BATTERY_FLOOR_V=11.8") && text(battery).contains("LOGBOOK_VEHICLE=golf"))
        #expect(obd(dir)?["battery_low"] as? Bool == true && obd(dir)?["engine_running"] as? Bool == false)

        // Filled up while parked: 41 2F F0 = 240·100/255 = 94.1 % after 66.7 % (0xAA): 27.45 %
        // of a 50 l tank = 13.7 l, journaled as a pending fill-up when the engine starts again.
        #expect(elm.run("emulator.answer['FUEL_LEVEL'] = elm.obd_message.HD('7E8') + elm.obd_message.SZ('03') + elm.obd_message.DT('41 2F F0')"))
        // …and P0133 repaired meanwhile: the next start's read finds it cleared.
        #expect(elm.run("elm.obd_message.DTC_STORED[:] = ['0420']"))
        #expect(elm.send("scenario car", confirmedBy: "switched to 'car'"))
        #expect(await eventually(.seconds(30)) { trip(dir)?["id"] as? String == "2" && obd(dir)?["fuel_percent"] as? Double == 94.1 })
        #expect(await eventually(.seconds(20)) { text(faults).contains("LOGBOOK_FAULT_STATE=cleared") && (obd(dir)?["fault_codes"] as? [[String: Any]])?.count == 1 })
        let (worst, samples, _, seqWentBack) = monitor.figures
        #expect(await daemon.stop()?.0 == 0)

        let journal = try JournalReader(directory: dir.file("state/journal"))
        let trips = try journal.trips()
        try #require(trips.count == 2, "\(trips)")
        #expect(trips[0].state != .discarded && trips[0].vehicleID == "golf")
        #expect(trips[0].startReason == "obd:elm" && trips[0].endReason == "obd:elm")
        #expect(trips[1].startReason == "obd:elm" && trips[1].vehicleID == "golf")
        let records = try journal.entries().map(\.record)
        let signals = records.compactMap { if case .signal(let s) = $0 { s } else { nil } }
        #expect(signals.contains { $0.source == "obd:elm" && $0.on && $0.vehicleID == "golf" })
        #expect(signals.contains { $0.source == "obd:elm" && !$0.on })
        #expect(signals.contains { $0.source == "dtc:P0133" && $0.on && $0.vehicleID == "golf" })
        #expect(signals.contains { $0.source == "dtc:P0420" && $0.on })
        #expect(signals.contains { $0.source == "dtc:P0133" && !$0.on } && !signals.contains { $0.source == "dtc:P0420" && !$0.on })
        #expect(signals.contains { $0.source == "battery-low:elm" && $0.on })
        let entries = records.compactMap { if case .entry(let e) = $0 { e } else { nil } }
        let odometer = entries.filter { $0.type == "odometer" }
        #expect(!odometer.isEmpty && odometer.allSatisfy { $0.origin == "obd" && $0.action == .add && $0.subject.hasPrefix("golf@") })
        #expect(odometer.first?.fields["odometer_km"]?.doubleValue == 5999.6 && odometer.first?.fields["source"]?.stringValue == "obd")
        let start = try #require(entries.first { $0.type == "obd.snapshot" && $0.subject == "1/start" })
        #expect(start.fields["fuel_percent"]?.doubleValue == 66.7 && start.fields["vin"]?.stringValue == "WP0ZZZ99ZTS390000")
        #expect(entries.contains { $0.type == "obd.snapshot" && $0.subject == "1/end" })
        let fill = try #require(entries.first { $0.type == "fuel.pending" })
        #expect(fill.origin == "obd" && fill.action == .add && fill.subject.hasPrefix("golf@") && fill.fields["vehicle"]?.stringValue == "golf")
        #expect(fill.fields["litres_estimated"]?.doubleValue == 13.7)
        #expect(fill.fields["level_before"]?.doubleValue == 66.7 && fill.fields["level_after"]?.doubleValue == 94.1)
        #expect(fill.fields["lat"]?.doubleValue != nil && fill.fields["lon"]?.doubleValue != nil && fill.fields["at"]?.stringValue != nil)
        // Every reader's typed view: the pending fill-up and the fault code signals.
        let typed = try PendingFillRecord(json: fill.fields)
        #expect(typed.vehicle == "golf" && typed.litresEstimated == 13.7 && typed.source == "elm")
        #expect(signals.filter { $0.source.hasPrefix("dtc") }.allSatisfy { FaultCodeSignal(source: $0.source) != nil })
        print(String(format: "obd: daemon drive: a trip obd:elm → obd:elm for golf (VIN), %d odometer readings, P0133+P0420 journaled and hooked (P0133 cleared later), battery 11.2 V hooked, a 13.7 l fill-up pending; live.json worst age %.2f s over %d samples",
                     odometer.count, worst, samples))
        #expect(worst <= 2.5 && !seqWentBack)
        elm.kill()
    }

    @Test(.timeLimit(.minutes(5)))
    func anAdapterKilledSlowedOrBabblingNeverStallsRecording() async throws {
        let dir = try TemporaryDirectory("obdf")
        defer { dir.remove() }
        var elm = try ELMEmulator(scenario: "car", transport: .tcp)
        #expect(Self.prepare(elm))
        let gpsd = try GPSDReplay(log: TestPaths.gpsLog("20100403_Z205_Switzerland.txt"), realtime: 20)
        defer { gpsd.stop() }
        // A grace longer than the outage: the adapter coming back holds the same trip.
        let daemon = try DaemonProcess(arguments: ["--config", try config(dir, gpsd: gpsd.address, elm: elm.address, grace: 60)])
        let monitor = LiveAgeMonitor(path: dir.file("run/live.json"))
        defer { monitor.stop() }
        func points() -> Int { trip(dir)?["points"] as? Int ?? 0 }
        func obdNumber(_ key: String) -> Int { obd(dir)?[key] as? Int ?? 0 }
        #expect(await eventually(.seconds(30)) { obd(dir)?["engine_running"] as? Bool == true && points() > 0 }, "log: \(daemon.log.suffix(3000))")
        let tripID = try #require(trip(dir)?["id"] as? String)
        var progress = [points()]

        // Unplugged mid-trip: the adapter is gone, the trip goes on recording points.
        elm.kill()
        #expect(await eventually(.seconds(20)) { obd(dir)?["connected"] as? Bool == false })
        #expect(await eventually(.seconds(20)) { points() > progress.last! + 20 })
        progress.append(points())
        elm = try ELMEmulator(scenario: "car", transport: .tcp, port: elm.port)
        #expect(Self.prepare(elm))
        #expect(await eventually(.seconds(30)) { obd(dir)?["engine_running"] as? Bool == true && obdNumber("connections") >= 2 })

        // Slowed to 2 s a reply: still the same trip, still recording.
        #expect(elm.send("delay 2", confirmedBy: "Delaying each command of 2.0 seconds"))
        let seqBefore = monitor.figures.seq
        #expect(await eventually(.seconds(30)) { monitor.figures.seq >= seqBefore + 10 })
        #expect(points() > progress.last!)
        progress.append(points())
        #expect(elm.send("delay 0", confirmedBy: "Delay removed"))

        // Garbage: rpm replies that are not hex, a 10,000-byte babble for the speed.
        let rejected = obdNumber("rejected")
        #expect(elm.run("emulator.answer['RPM'] = '<writeln>41 0C ZZ 9</writeln>'"))
        #expect(elm.run("emulator.answer['SPEED'] = '<string>' + 'A' * 10000 + '</string>'"))
        #expect(await eventually(.seconds(30)) { obdNumber("rejected") >= rejected + 4 })
        #expect(points() > progress.last!)
        progress.append(points())
        #expect(trip(dir)?["id"] as? String == tripID)
        // Rpm that stays garbage is no engine the source can vouch for: the link is renewed
        // and the trip holds only for the grace. Good replies again, and the engine is back.
        #expect(elm.run("del emulator.answer['RPM']; del emulator.answer['SPEED']"))
        #expect(await eventually(.seconds(30)) { obd(dir)?["engine_running"] as? Bool == true && obd(dir)?["rpm"] as? Double != nil })
        #expect(await eventually(.seconds(20)) { points() > progress.last! })
        #expect(trip(dir)?["id"] as? String == tripID)
        progress.append(points())

        let (worst, samples, _, seqWentBack) = monitor.figures
        #expect(await daemon.stop()?.0 == 0)
        // One trip through it all, closed when the daemon stopped (its sources are let go
        // first, so it ends with the source's reason at the stop).
        let trips = try JournalReader(directory: dir.file("state/journal")).trips()
        #expect(trips.count == 1 && trips.first?.summary.pointCount ?? 0 >= progress.last!, "\(trips)\nlog: \(daemon.log.suffix(4000))")
        print(String(format: "obd: daemon faults (adapter killed and restarted, 2 s a reply, garbage): one trip, points %@; live.json worst age %.2f s over %d samples",
                     progress.map(String.init).joined(separator: " → "), worst, samples))
        #expect(worst <= 2.5 && !seqWentBack)
        elm.kill()
    }
}
