// SPDX-License-Identifier: MIT
import Foundation
import LogbookConfig
import LogbookCore
import LogbookTestSupport
import Testing

@testable import LogbookStore

@Suite struct ReaderConfigurationTests {
    @Test func shippedFileGivesTheDefaults() throws {
        let path = TestPaths.packageRoot.appendingPathComponent("config/logbookd.toml").path
        let c = try ReaderConfiguration.load(file: path, environment: [:])
        // The shipped file names no zone: the system's (/etc/localtime here), not the type's UTC.
        var defaults = ReaderConfiguration()
        defaults.timeZone = TimeZoneFile.system(environment: [:])
        #expect(c == defaults)
        #expect(c.indexPath(stateDirectory: "/var/lib/logbook") == "/var/cache/logbook/index.sqlite")
        #expect(c.indexPath(stateDirectory: "/tmp/x/state") == "/tmp/x/state/cache/index.sqlite")
    }

    @Test func keysAreCheckedAndNamed() throws {
        let dir = try TemporaryDirectory("readercfg")
        defer { dir.remove() }
        let file = dir.file("c.toml")
        func load(_ text: String, _ env: [String: String] = [:]) throws -> ReaderConfiguration {
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            return try ReaderConfiguration.load(file: file, environment: env)
        }
        #expect(try load("[index]\npath = \"/srv/ix.sqlite\"\n[units]\nsystem = \"imperial\"\n").units == .imperial)
        #expect(try load("[index]\npath = \"/srv/ix.sqlite\"\n").indexPath(stateDirectory: "/var/lib/logbook") == "/srv/ix.sqlite")
        #expect(try load("", ["LOGBOOKD_UNITS_SYSTEM": "imperial"]).units == .imperial)
        for (text, key) in [
            ("[index]\npth = \"/x\"\n", "index.pth"), ("[units]\nsystem = \"furlongs\"\n", "units.system"),
            ("[index]\npath = \"relative.sqlite\"\n", "index.path"), ("[units]\nsystem = 3\n", "units.system"),
        ] {
            #expect { try load(text) } throws: { ($0 as? ConfigError)?.key == key }
        }
        // The daemon's tables are the daemon's to check.
        #expect(try load("[gpsd]\nadress = 1\n").units == .metric)
    }
}
