// SPDX-License-Identifier: MIT
import Foundation
import LogbookConfig
import LogbookCore
import LogbookDaemon
import LogbookJournal
import LogbookSettings
import LogbookTestSupport
import Testing

@Suite struct DeviceSourceTests {
    @Test func deviceMatchIsCheckedAndNamesTheKey() throws {
        func load(_ match: String) throws -> Settings {
            let dir = try TemporaryDirectory("dev")
            defer { dir.remove() }
            try "[[source]]\ntype = \"device\"\nmatch = \"\(match)\"\n".write(toFile: dir.file("c.toml"), atomically: true, encoding: .utf8)
            return try Settings.load(file: dir.file("c.toml"), environment: [:])
        }
        #expect(try load("10c4:EA60").sources.first?.signal(isOn: true).reason.rawValue == "device:10c4:EA60")
        #expect(try load("/dev/ttyUSB0").sources.first?.kind == .device)
        #expect(throws: ConfigError.self) { try load("usb-dongle") }
        do {
            _ = try load("10c4:ea6")
        } catch {
            #expect((error as? ConfigError)?.key == "source[0].match")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aPresentDeviceStartsATripForItsVehicle() async throws {
        let dir = try TemporaryDirectory("devd")
        defer { dir.remove() }
        let cfg = dir.file("logbookd.toml")
        // /dev/null is always there: the real sd-device enumeration finds it at start.
        try """
            state_dir = "\(dir.file("state"))"
            runtime_dir = "\(dir.file("run"))"
            [gpsd]
            address = "127.0.0.1:1"
            [[vehicle]]
            id = "van"
            [[source]]
            type = "device"
            match = "/dev/null"
            subsystem = "mem"
            vehicle = "van"
            """.write(toFile: cfg, atomically: true, encoding: .utf8)
        let d = try DaemonProcess(arguments: ["--config", cfg])
        var deadline = TestDeadline(.seconds(10))
        var trip: [String: Any]?
        while trip == nil, !deadline.passed {
            await deadline.sleep(for: .milliseconds(100))
            trip = readJSONFile(dir.file("run/live.json"))?["trip"] as? [String: Any]
        }
        #expect(trip?["start_reason"] as? String == "device:/dev/null", "log: \(d.log)")
        #expect((trip?["vehicle"] as? [String: Any])?["id"] as? String == "van")
        _ = await d.stop()
    }
}
