// SPDX-License-Identifier: MIT
import Foundation
import LogbookConfig
import LogbookCore
import LogbookRecords
import LogbookDaemon
import LogbookGPSD
import LogbookSettings
import LogbookTestSupport
import Logging
import Testing

@Suite struct ConfigurationTests {
    func load(_ toml: String?, env: [String: String] = [:], overrides: Settings.Overrides = .init()) throws -> Settings {
        let dir = try TemporaryDirectory("cfg")
        defer { dir.remove() }
        var file: String?
        if let toml {
            file = dir.file("logbookd.toml")
            try toml.write(toFile: dir.file("logbookd.toml"), atomically: true, encoding: .utf8)
        }
        return try Settings.load(file: file, environment: env, overrides: overrides)
    }

    func error(_ toml: String?, env: [String: String] = [:]) -> ConfigError? {
        do {
            _ = try load(toml, env: env)
            return nil
        } catch let e as ConfigError {
            return e
        } catch {
            return nil
        }
    }

    @Test func shippedConfigFileLoadsWithItsDocumentedDefaults() throws {
        let text = try String(contentsOfFile: TestPaths.packageRoot.appendingPathComponent("config/logbookd.toml").path, encoding: .utf8)
        let c = try load(text)
        let d = Settings()
        #expect(c.gpsd == d.gpsd)
        #expect(c.stateDirectory == d.stateDirectory)
        #expect(c.runtimeDirectory == d.runtimeDirectory)
        #expect(c.logLevel == d.logLevel)
        #expect(c.liveInterval == d.liveInterval)
        #expect(c.commitInterval == d.commitInterval)
        #expect(c.trip == d.trip, "the [trip] values in config/logbookd.toml must be the built-in defaults")
        #expect(c.controlGroup == "logbook")
    }

    @Test func vehiclesAndSourcesAreReadAndChecked() throws {
        let c = try load("""
            [[vehicle]]
            id = "golf"
            make = "VW"
            year = 2019
            [[source]]
            type = "power_supply"
            supply = "ACAD"
            vehicle = "golf"
            [[source]]
            type = "motion"
            """)
        #expect(c.vehicles.map(\.id) == ["golf"])
        #expect(c.vehicle("golf")?.name == "golf")
        #expect(c.sources.map(\.kind) == [.powerSupply, .motion])
        #expect(c.sources[0].signal(isOn: true).reason.rawValue == "power:ACAD")
        #expect(c.trip.motionEnabled)
        #expect(c.trip.motionVehicle == nil)
        let motion = try load("[[vehicle]]\nid = \"golf\"\n[[vehicle]]\nid = \"van\"\n[trip]\ndefault_vehicle = \"golf\"\n[[source]]\ntype = \"motion\"\nvehicle = \"van\"\n")
        #expect(motion.trip.motionVehicle == "van", "a motion source's vehicle is its trips' vehicle")
        // A source may name a vehicle only the journal knows: logbookd checks against its registry.
        let polo = try load("[[source]]\ntype = \"power_supply\"\nsupply = \"A\"\nvehicle = \"polo\"\n")
        do {
            try polo.checkVehicleReferences(known: ["golf"])
            Issue.record("a source naming an unknown vehicle was accepted")
        } catch {
            #expect(error.key == "source[0].vehicle")
        }
        try polo.checkVehicleReferences(known: ["golf", "polo"])
        #expect(error("[[vehicle]]\nid = \"a\"\nyear = 1700\n")?.key == "vehicle[0].year")
        #expect(error("[[vehicle]]\nid = \"a\"\nvin = \"123\"\n")?.key == "vehicle[0].vin")
        #expect(error("[[source]]\ntype = \"teleport\"\n")?.key == "source[0].type")
        #expect(error("[[source]]\ntype = \"power_supply\"\n")?.key == "source[0].supply")
        #expect(error("[[vehicle]]\nid = \"a\"\ncolour = \"red\"\n")?.key == "vehicle[0].colour")
        #expect(error("[[vehicle]]\nid = \"a\"\n[[vehicle]]\nid = \"a\"\n")?.key == "vehicle[1].id")
        #expect(error("[trip]\npower_off_grace_s = -1\n")?.key == "trip.power_off_grace_s")
    }

    @Test func fileValuesAreRead() throws {
        let c = try load("""
            state_dir = "/srv/lb"
            log_level = "debug"
            [gpsd]
            address = "10.0.0.2:3000"
            [journal]
            commit_interval_s = 2
            """)
        #expect(c.gpsd.host == "10.0.0.2" && c.gpsd.port == "3000")
        #expect(c.stateDirectory == "/srv/lb")
        #expect(c.journalDirectory == "/srv/lb/journal")
        #expect(c.logLevel == .debug)
        #expect(c.commitInterval == .seconds(2))
    }

    @Test func environmentOverridesFileAndFlagsOverrideEnvironment() throws {
        let toml = "[gpsd]\naddress = \"127.0.0.1:1111\"\n"
        #expect(try load(toml, env: ["LOGBOOKD_GPSD_ADDRESS": "127.0.0.1:2222"]).gpsd.port == "2222")
        #expect(try load(toml, env: ["LOGBOOKD_GPSD": "127.0.0.1:2323"]).gpsd.port == "2323")
        let flagged = try load(toml, env: ["LOGBOOKD_GPSD_ADDRESS": "127.0.0.1:2222"], overrides: .init(gpsd: "127.0.0.1:3333"))
        #expect(flagged.gpsd.port == "3333")
    }

    @Test func wrongTypeNamesTheKey() throws {
        let e = try #require(error("[gpsd]\naddress = 2947\n"))
        #expect(e.key == "gpsd.address")
        #expect(e.description.contains("gpsd.address: expected a string, found an integer"))
    }

    @Test func otherProcessesTablesAreTheirsToCheckButAMisspeltTableIsNot() throws {
        // [web] belongs to logbook-web: the daemon leaves even a misspelt key inside it alone.
        #expect(error("[web]\nlisten = \"127.0.0.1:8080\"\nlistne = 1\n") == nil)
        let e = try #require(error("[wbe]\nlisten = \"127.0.0.1:8080\"\n"))
        #expect(e.key == "wbe")
        #expect(e.problem == "unknown key")
    }

    @Test func unknownKeyNamesTheKey() throws {
        let e = try #require(error("[gpsd]\nadress = \"localhost\"\n"))
        #expect(e.key == "gpsd.adress")
        #expect(e.problem == "unknown key")
        let top = try #require(error("statedir = \"/x\"\n"))
        #expect(top.key == "statedir")
    }

    @Test func outOfRangeAndBadValuesNameTheKey() throws {
        #expect(error("[journal]\ncommit_interval_s = 30\n")?.key == "journal.commit_interval_s")
        #expect(error("log_level = \"loud\"\n")?.key == "log_level")
        #expect(error("state_dir = \"relative/path\"\n")?.key == "state_dir")
        #expect(error("[gpsd]\naddress = \"host:notaport\"\n")?.key == "gpsd.address")
        #expect(error(nil, env: ["LOGBOOKD_JOURNAL_COMMIT_INTERVAL_S": "soon"])?.key == "LOGBOOKD_JOURNAL_COMMIT_INTERVAL_S")
    }

    @Test func syntaxErrorGivesLineAndColumn() throws {
        let e = try #require(error("[gpsd\naddress = 1\n"))
        #expect(e.description.contains("line 1"))
    }

    @Test func missingNamedFileIsAnError() throws {
        do {
            _ = try Settings.load(file: "/nonexistent/logbookd.toml", environment: [:])
            Issue.record("a missing --config file must be an error")
        } catch {
            #expect(error.file == "/nonexistent/logbookd.toml")
            #expect(error.problem.contains("not found"))
        }
    }
}
