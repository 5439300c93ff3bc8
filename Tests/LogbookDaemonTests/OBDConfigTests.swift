// SPDX-License-Identifier: MIT
import Foundation
import LogbookConfig
import LogbookCore
import LogbookDaemon
import LogbookRecords
import LogbookSettings
import LogbookTestSupport
import Testing

@Suite struct OBDConfigTests {
    func load(_ toml: String) throws -> Settings {
        try Settings.load(text: toml, file: "obd.toml")
    }

    func problem(_ toml: String) -> ConfigError? {
        do {
            _ = try load(toml)
            return nil
        } catch {
            return error as? ConfigError
        }
    }

    static let vehicles = """
        [[vehicle]]
        id = "golf"
        vin = "WP0ZZZ99ZTS390000"
        tank_l = 50
        [[vehicle]]
        id = "f150"
        vin = "1M8GDM9AXKP042788"

        """

    @Test func serialAndTCPSources() throws {
        let c = try load(Self.vehicles + """
            [[source]]
            type = "obd"
            device = "/dev/rfcomm0"
            baud = 115200
            vehicle = "golf"
            [[source]]
            type = "obd"
            name = "wifi"
            address = "192.168.0.10:35000"
            low_battery_v = 12.0
            """)
        #expect(c.sources.count == 2)
        #expect(c.sources[0].name == "obd" && c.sources[0].device == "/dev/rfcomm0" && c.sources[0].baud == 115_200)
        #expect(c.sources[0].lowBatteryVolts == 11.8 && c.sources[0].signal(isOn: true).reason.rawValue == "obd:obd")
        #expect(c.sources[1].address == "192.168.0.10:35000" && c.sources[1].lowBatteryVolts == 12.0)
        #expect(c.sources[1].signal(isOn: true).reason == .obd("wifi"))
        #expect(c.vehicles.map { $0.record.vin } == ["WP0ZZZ99ZTS390000", "1M8GDM9AXKP042788"])
        #expect(c.vehicles.first?.record.tankLitres == 50)
        #expect(try load(Self.vehicles + "[[source]]\ntype = \"obd\"\ndevice = \"/dev/ttyUSB0\"\n").sources[0].baud == 38_400)
    }

    @Test(arguments: [
        ("[[source]]\ntype = \"obd\"\n", "source[0].device", "needs device"),
        ("[[source]]\ntype = \"obd\"\ndevice = \"/dev/rfcomm0\"\naddress = \"10.0.0.1:35000\"\n", "source[0].address", "not both"),
        ("[[source]]\ntype = \"obd\"\ndevice = \"ttyUSB0\"\n", "source[0].device", "absolute path"),
        ("[[source]]\ntype = \"obd\"\ndevice = \"/dev/ttyUSB0\"\nbaud = 12345\n", "source[0].baud", "expected one of"),
        ("[[source]]\ntype = \"obd\"\naddress = \"10.0.0.1\"\n", "source[0].address", "HOST:PORT"),
        ("[[source]]\ntype = \"obd\"\naddress = \"10.0.0.1:35000\"\nbaud = 38400\n", "source[0].baud", "only for a serial device"),
        ("[[source]]\ntype = \"obd\"\ntransport = \"bluetooth\"\ndevice = \"/dev/rfcomm0\"\n", "source[0].transport", "expected serial"),
        ("[[source]]\ntype = \"obd\"\ntransport = \"tcp\"\ndevice = \"/dev/rfcomm0\"\n", "source[0].transport", "tcp needs address"),
        ("[[source]]\ntype = \"obd\"\ndevice = \"/dev/rfcomm0\"\nlow_battery_v = 3\n", "source[0].low_battery_v", "out of range"),
        ("[[vehicle]]\nid = \"a\"\nvin = \"1M8GDM9A1KP042788\"\n", "vehicle[0].vin", "check digit"),
        ("[[vehicle]]\nid = \"a\"\nvin = \"WP0ZZZ99ZTS39000\"\n", "vehicle[0].vin", "17 characters"),
        ("[[vehicle]]\nid = \"a\"\nvin = \"WP0ZZZ99ZTS390000\"\n[[vehicle]]\nid = \"b\"\nvin = \"WP0ZZZ99ZTS390000\"\n", "vehicle[1].vin", "has VIN"),
    ])
    func badOBDKeysAreNamed(_ toml: String, _ key: String, _ words: String) {
        let e = problem(toml)
        #expect(e?.key == key, "\(String(describing: e))")
        #expect("\(e.map { "\($0)" } ?? "")".contains(words), "\(String(describing: e))")
    }

    @Test func theDaemonExitsWith78NamingTheKey() async throws {
        let dir = try TemporaryDirectory("obdcfg")
        defer { dir.remove() }
        let path = dir.file("c.toml")
        try "[[source]]\ntype = \"obd\"\ntransport = \"can\"\naddress = \"127.0.0.1:35000\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        let d = try DaemonProcess(arguments: ["--config", path, "--state-dir", dir.file("s"), "--runtime-dir", dir.file("r")])
        #expect(await d.waitForExit(timeout: .seconds(10)) == 78)
        #expect(d.log.contains("source[0].transport"), "stderr was: \(d.log)")
        #expect(d.log.split(separator: "\n").count == 1, "one clear line, got: \(d.log)")
    }
}
