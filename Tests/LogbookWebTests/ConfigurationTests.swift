// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookRecords
import LogbookConfig
import LogbookTestSupport
import Testing

@testable import LogbookWeb

/// `[web]`: defaults, overrides, the password file and the loopback rule.
@Suite struct ConfigurationTests {
    func load(_ toml: String, in dir: TemporaryDirectory, env: [String: String] = [:], listen: String? = nil) throws(ConfigError)
        -> WebConfiguration
    {
        let file = dir.file("logbookd.toml")
        _ = FileManager.default.createFile(atPath: file, contents: Data(toml.utf8))
        return try WebConfiguration.load(file: file, environment: env, overrides: .init(listen: listen))
    }

    func passwordFile(_ dir: TemporaryDirectory, _ text: String, mode: Int) -> String {
        let path = dir.file("web.password")
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: mode])
        return path
    }

    @Test func defaultsListenOnLoopbackWithoutPassword() throws {
        let dir = try TemporaryDirectory("wcf")
        defer { dir.remove() }
        let c = try load("", in: dir)
        #expect(c.listen == ListenAddress(host: "127.0.0.1", port: 8080))
        #expect(!c.requiresLogin)
        #expect(c.controlSocketPath == "/run/logbook/control.sock")
        #expect(c.indexPath == "/var/cache/logbook/index.sqlite")
    }

    @Test func readsTheSharedKeysAndItsOwnTable() throws {
        let dir = try TemporaryDirectory("wcf")
        defer { dir.remove() }
        let c = try load(
            """
            state_dir = "/srv/lb"
            runtime_dir = "/srv/run"
            [gpsd]
            address = "127.0.0.1:2947"
            [control]
            socket = "/srv/ctl.sock"
            [web]
            listen = "[::1]:9000"
            session_days = 7
            [units]
            system = "imperial"
            [trip]
            default_vehicle = "golf"
            [[vehicle]]
            id = "golf"
            name = "Golf"
            year = 2019
            """, in: dir)
        #expect(c.listen.description == "[::1]:9000" && c.listen.isLoopback)
        #expect(c.controlSocketPath == "/srv/ctl.sock" && c.liveStatePath == "/srv/run/live.json")
        #expect(c.indexPath == "/srv/lb/cache/index.sqlite")
        #expect(c.imperialUnits && c.sessionLifetime == 7 * 86_400)
        #expect(c.vehicles.map(\.id) == ["golf"] && c.vehicle("golf")?.year == 2019 && c.defaultVehicle == "golf")
    }

    /// The file the .deb installs: every table in it, even an empty one (`[places]` with
    /// its key commented out), is one logbook-web reads or leaves to another process.
    @Test func theShippedConfigurationLoads() throws {
        let shipped = TestPaths.packageRoot.appendingPathComponent("config/logbookd.toml").path
        let c = try WebConfiguration.load(file: shipped, environment: [:])
        #expect(c.listen.isLoopback && c.placesBundle == "/usr/share/logbook/places")
        let dir = try TemporaryDirectory("wcf")
        defer { dir.remove() }
        #expect(try load("[places]\nbundle = \"/srv/places\"\n", in: dir).placesBundle == "/srv/places")
        #expect {
            _ = try load("[places]\nbundle = \"places\"\n", in: dir)
        } throws: { error in
            (error as? ConfigError)?.key == "places.bundle"
        }
    }

    @Test func aLANAddressWithoutPasswordIsRefusedNamingTheKey() throws {
        let dir = try TemporaryDirectory("wcf")
        defer { dir.remove() }
        for address in ["192.168.1.20:8080", "0.0.0.0:8080", "[::]:8080"] {
            #expect {
                _ = try load("[web]\nlisten = \"\(address)\"\n", in: dir)
            } throws: { error in
                (error as? ConfigError)?.key == "web.password_file" && "\(error)".contains("not a loopback address")
            }
        }
        // The flag too.
        #expect(throws: ConfigError.self) { _ = try load("", in: dir, listen: "10.0.0.2:80") }
    }

    @Test func thePasswordComesFromItsOwnFileWhichOthersMayNotRead() throws {
        let dir = try TemporaryDirectory("wcf")
        defer { dir.remove() }
        let good = passwordFile(dir, "correct horse\n", mode: 0o640)
        let c = try load("[web]\nlisten = \"0.0.0.0:8080\"\npassword_file = \"\(good)\"\n", in: dir)
        #expect(c.password == "correct horse" && c.requiresLogin)

        _ = passwordFile(dir, "correct horse\n", mode: 0o644)
        #expect {
            _ = try load("[web]\npassword_file = \"\(good)\"\n", in: dir)
        } throws: { error in
            (error as? ConfigError)?.key == "web.password_file" && "\(error)".contains("readable by everyone")
        }
        _ = passwordFile(dir, "short\n", mode: 0o600)
        #expect {
            _ = try load("[web]\npassword_file = \"\(good)\"\n", in: dir)
        } throws: { error in "\(error)".contains("shorter than 8") }
        #expect {
            _ = try load("[web]\npassword_file = \"\(dir.file("missing"))\"\n", in: dir)
        } throws: { error in (error as? ConfigError)?.key == "web.password_file" }
    }

    @Test func aSystemdCredentialServesAsPassword() throws {
        let dir = try TemporaryDirectory("wcf")
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.file("creds"), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: dir.file("creds/web-password"), contents: Data("from-credential".utf8))
        let c = try load("[web]\nlisten = \"0.0.0.0:8080\"\n", in: dir, env: ["CREDENTIALS_DIRECTORY": dir.file("creds")])
        #expect(c.password == "from-credential")
    }

    @Test(arguments: [
        ("[web]\nlisten = \"8080\"\n", "web.listen"),
        ("[web]\nlisten = 8080\n", "web.listen"),
        ("[web]\nport = 8080\n", "web.port"),
        ("[web]\nsession_days = 0\n", "web.session_days"),
        ("[units]\nsystem = \"furlongs\"\n", "units.system"),
        ("[wbe]\nlisten = \"127.0.0.1:1\"\n", "wbe"),
    ])
    func badValuesNameTheirKey(toml: String, key: String) throws {
        let dir = try TemporaryDirectory("wcf")
        defer { dir.remove() }
        #expect { _ = try load(toml, in: dir) } throws: { ($0 as? ConfigError)?.key == key }
    }

    @Test func environmentOverridesTheFile() throws {
        let dir = try TemporaryDirectory("wcf")
        defer { dir.remove() }
        let c = try load("[web]\nlisten = \"127.0.0.1:1\"\n", in: dir, env: ["LOGBOOKD_WEB_LISTEN": "127.0.0.2:2"])
        #expect(c.listen == ListenAddress(host: "127.0.0.2", port: 2))
    }

    @Test func listenAddresses() {
        #expect(ListenAddress(parsing: "localhost:80")?.isLoopback == true)
        #expect(ListenAddress(parsing: "127.3.4.5:80")?.isLoopback == true)
        #expect(ListenAddress(parsing: "[::1]:0")?.port == 0)
        #expect(ListenAddress(parsing: "192.168.0.1:8080")?.isLoopback == false)
        #expect(ListenAddress(parsing: "::1:80") == nil)
        #expect(ListenAddress(parsing: "host:99999") == nil)
        #expect(ListenAddress(parsing: ":80") == nil)
    }
}
