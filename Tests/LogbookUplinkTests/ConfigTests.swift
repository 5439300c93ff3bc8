// SPDX-License-Identifier: MIT
import Foundation
import LogbookConfig
import LogbookCore
import LogbookRecords
import LogbookTestSupport
import LogbookUplink
import Testing

@Suite struct ConfigTests {
    func load(_ toml: String, env: [String: String] = [:]) throws -> UplinkConfiguration {
        let dir = try TemporaryDirectory("cfg")
        defer { dir.remove() }
        try toml.write(toFile: dir.file("c.toml"), atomically: true, encoding: .utf8)
        return try UplinkConfiguration.load(file: dir.file("c.toml"), environment: env)
    }

    func error(_ toml: String, env: [String: String] = [:]) -> String {
        do {
            _ = try load(toml, env: env)
            return "no error"
        } catch { return "\(error)" }
    }

    @Test func defaultsFollowTheDaemonsDirectoriesAndTheTablesAreRead() throws {
        let c = try load("""
            state_dir = "/srv/lb"
            runtime_dir = "/run/lb"
            [gpsd]
            address = "127.0.0.1:2947"
            [[vehicle]]
            id = "golf"
            name = "Golf"
            [uplink]
            device_id = "golf-pi"
            [uplink.mqtt]
            host = "broker.lan"
            ca_file = "/etc/ssl/ca.pem"
            username = "car"
            [uplink.postgres]
            url = "postgres://fleet.example/logbook"
            batch_points = 2000
            """, env: ["LOGBOOKD_UPLINK_MQTT_PORT": "8883"])
        #expect(c.journalDirectory == "/srv/lb/journal" && c.liveStatePath == "/run/lb/live.json")
        #expect(c.deviceID == "golf-pi" && c.vehicles.map(\.id) == ["golf"] && c.vehicles.map(\.record.name) == ["Golf"])
        #expect(c.mqtt?.host == "broker.lan" && c.mqtt?.port == 8883 && c.mqtt?.caFile == "/etc/ssl/ca.pem")
        #expect(c.postgres?.batchPoints == 2000)
        #expect(try load("").mqtt == nil)
    }

    @Test func mistakesNameTheKey() {
        #expect(error("[uplink.mqtt]\nhots = \"x\"\n").contains("uplink.mqtt.hots: unknown key"))
        #expect(error("[uplink.mqtt]\nhost = \"x\"\nport = \"80\"\n").contains("uplink.mqtt.port: expected an integer"))
        #expect(error("[uplink]\ndevice_id = \"My Car\"\n").contains("uplink.device_id"))
        #expect(error("[uplink.mqtt]\nhost = \"x\"\nqos = 0\n").contains("uplink.mqtt.qos: 0 is out of range"))
        #expect(error("[uplink]\nstate_dir = \"rel\"\n").contains("uplink.state_dir: must be an absolute path"))
        #expect(error("[uplink.postgres]\nurl = \"x\"\n", env: ["LOGBOOKD_UPLINK_POSTGRES_BATCH_POINTS": "many"])
            .contains("LOGBOOKD_UPLINK_POSTGRES_BATCH_POINTS"))
        #expect(error("[uplnk]\n").contains("uplnk: unknown key"))
        // `[[vehicle]]` is read by the daemon's parser, with its rules.
        #expect(error("[[vehicle]]\nid = \"golf\"\nyear = 1700\n").contains("vehicle[0].year"), "\(error("[[vehicle]]\nid = \"golf\"\nyear = 1700\n"))")
        #expect(error("[[vehicle]]\nid = \"Golf Car\"\n").contains("vehicle[0].id"))
    }

    /// A trip that names no vehicle (a manual start, a source without `vehicle`) is the
    /// configured vehicle's, not a device "car" Home Assistant would show beside it.
    @Test func tripsWithoutAVehicleBelongToAConfiguredOneNotAPhantomCar() throws {
        let golf = "[[vehicle]]\nid = \"golf\"\nname = \"Golf\"\n"
        #expect(try load(golf).defaultVehicle == "golf")
        #expect(try load(golf + "[[vehicle]]\nid = \"polo\"\n").defaultVehicle == "golf")
        #expect(try load("[trip]\ndefault_vehicle = \"polo\"\n" + golf + "[[vehicle]]\nid = \"polo\"\n").defaultVehicle == "polo")
        #expect(try load("[uplink]\ndefault_vehicle = \"van\"\n" + golf).defaultVehicle == "van")
        #expect(try load("").defaultVehicle == "car")
        // The live trip of the Home Assistant state is the configured car's.
        let live = JSONValue.object([("schema", .number(1)), ("gps", .object([])), ("trip", .object([("id", .number(3))]))])
        #expect(LiveView(live: live, defaultVehicle: try load(golf).defaultVehicle)?.tripVehicle == "golf")
    }
}
