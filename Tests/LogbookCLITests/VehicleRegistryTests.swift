// SPDX-License-Identifier: MIT
import Foundation
import LogbookTestSupport
import Testing

/// One vehicle registry: the configuration file seeds it, the journal holds it, and logbookd
/// knows every vehicle the CLI adds — for `trip start --vehicle` at once and, after a reload,
/// for a `[[source]]` that names it. An unchanged file never undoes a person's edit; a changed
/// one is journaled.
@Suite(.serialized, .timeLimit(.minutes(5))) struct VehicleRegistryTests {
    func writeConfig(_ dir: TemporaryDirectory, golfName: String, extra: String = "") throws {
        try """
            state_dir = "\(dir.file("state"))"
            runtime_dir = "\(dir.file("run"))"
            [gpsd]
            address = "127.0.0.1:1"
            [control]
            group = ""
            [shutdown]
            logind_inhibitor = false
            [[vehicle]]
            id = "golf"
            name = "\(golfName)"
            \(extra)
            """.write(toFile: dir.file("logbookd.toml"), atomically: true, encoding: .utf8)
    }

    func vehicle(_ cli: CLI, _ id: String) throws -> [String: Any] {
        let list = try JSONSerialization.jsonObject(with: Data(try cli.ok(["vehicles", "list", "--all", "--json"]).out.utf8)) as? [[String: Any]]
        return list?.first { $0["id"] as? String == id } ?? [:]
    }

    func live(_ dir: TemporaryDirectory) -> [String: Any]? { readJSONFile(dir.file("run/live.json")) }

    @Test func aVehicleAddedWithTheCLIIsKnownToTheRunningDaemon() async throws {
        let dir = try TemporaryDirectory("lb-reg")
        defer { dir.remove() }
        try writeConfig(dir, golfName: "Golf")
        let cli = CLI(config: dir.file("logbookd.toml"))
        var daemon = try DaemonProcess(arguments: ["--config", cli.config])
        #expect(await eventually { FileManager.default.fileExists(atPath: dir.file("run/control.sock")) }, "\(daemon.log)")

        // The daemon journaled the configured vehicle (origin config), durable with its next commit.
        #expect(await eventually(.seconds(15)) { (try? self.vehicle(cli, "golf")["origin"] as? String) == "config" })
        try cli.ok(["vehicles", "add", "polo", "--name", "Polo", "--driver", "Anna"])
        let started = try cli.ok(["trip", "start", "--vehicle", "polo"])
        #expect(started.out.contains("Polo") || started.out.contains("polo"), "\(started.out)")
        #expect(await eventually { (self.live(dir)?["trip"] as? [String: Any]).flatMap { $0["vehicle"] as? [String: Any] }?["name"] as? String == "Polo" })
        try cli.ok(["trip", "stop"])
        let unknown = try cli.run(["trip", "start", "--vehicle", "nope"])
        #expect(unknown.status != 0 && unknown.err.contains("no vehicle \"nope\""), "\(unknown.err)")

        // A person's edit, then a reload with the file unchanged: the edit stays. A source that
        // names the vehicle the CLI added is accepted after the reload (a `service` source holds a trip).
        try cli.ok(["vehicles", "edit", "golf", "--name", "Golf VIII"])
        try writeConfig(dir, golfName: "Golf", extra: "[[source]]\ntype = \"service\"\nvehicle = \"polo\"\n")
        let seq = live(dir)?["seq"] as? Int ?? 0
        kill(daemon.pid, SIGHUP)
        #expect(await eventually { (self.live(dir)?["trip"] as? [String: Any]).flatMap { $0["vehicle"] as? [String: Any] }?["id"] as? String == "polo" }, "\(daemon.log.suffix(1500))")
        #expect((live(dir)?["seq"] as? Int ?? 0) > seq)
        #expect(try vehicle(cli, "golf")["name"] as? String == "Golf VIII")

        // The file changes the name: journaled as the file's change (the latest change wins).
        try writeConfig(dir, golfName: "Golf (fleet)", extra: "[[source]]\ntype = \"service\"\nvehicle = \"polo\"\n")
        kill(daemon.pid, SIGHUP)
        #expect(await eventually { (try? self.vehicle(cli, "golf")["name"] as? String) == "Golf (fleet)" }, "\(daemon.log.suffix(1500))")
        let history = try cli.ok(["vehicles", "show", "golf", "--history"]).out
        #expect(history.components(separatedBy: "by config").count - 1 == 2 && history.contains("by cli"), "\(history)")

        // After a restart the journal's segment header brings every vehicle back.
        #expect(await daemon.stop()?.0 == 0)
        daemon = try DaemonProcess(arguments: ["--config", cli.config])
        #expect(await eventually { (self.live(dir)?["trip"] as? [String: Any]).flatMap { $0["vehicle"] as? [String: Any] }?["name"] as? String == "Polo" }, "\(daemon.log.suffix(1500))")
        let before = try vehicle(cli, "golf")["changes"] as? Int
        #expect(await daemon.stop()?.0 == 0)
        #expect(try vehicle(cli, "golf")["changes"] as? Int == before, "an unchanged file journals nothing at start")
        print("vehicle-registry: CLI-added vehicle used by trip start and by a reloaded source; config seeds it once, file changes journaled, person's edits kept")
    }

    @Test func aSourceNamingAVehicleNoOneKnowsStopsTheDaemonNamingTheKey() async throws {
        let dir = try TemporaryDirectory("lb-reg")
        defer { dir.remove() }
        try writeConfig(dir, golfName: "Golf", extra: "[[source]]\ntype = \"service\"\nvehicle = \"ghost\"\n")
        let daemon = try DaemonProcess(arguments: ["--config", dir.file("logbookd.toml")])
        #expect(await daemon.waitForExit(timeout: .seconds(20)) == 78)
        #expect(daemon.log.contains("config error: source[0].vehicle: no vehicle has id \"ghost\""), "\(daemon.log)")
    }
}
