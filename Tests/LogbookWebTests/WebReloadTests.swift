// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookTestSupport
import Testing

/// `logbook-web` follows its configuration file without a restart: SIGHUP (`systemctl reload`)
/// reads it again; vehicles and `[trip] default_vehicle` apply to the next request, a file
/// with a mistake changes nothing, and a new listening address is named as needing a restart.
@Suite(.serialized, .timeLimit(.minutes(3))) struct WebReloadTests {
    func write(_ dir: TemporaryDirectory, defaultVehicle: String, extra: String = "", listen: String = "127.0.0.1:0") throws {
        try """
            state_dir = "\(dir.file("state"))"
            runtime_dir = "\(dir.file("run"))"
            [web]
            listen = "\(listen)"
            state_dir = "\(dir.file("web"))"
            [trip]
            default_vehicle = "\(defaultVehicle)"
            [[vehicle]]
            id = "golf"
            name = "Golf"
            [[vehicle]]
            id = "polo"
            name = "Polo"
            \(extra)
            """.write(toFile: dir.file("logbookd.toml"), atomically: true, encoding: .utf8)
    }

    func vehicles(_ client: HTTPTestClient) async throws -> (default: String?, ids: [String]) {
        let reply = try await client.request("GET", "/api/vehicles")
        guard case .array(let list)? = reply.json?["vehicles"] else { return (nil, []) }
        let ids = list.compactMap { $0["id"]?.stringValue }
        return (reply.json?["default_vehicle"]?.stringValue, ids)
    }

    @Test func sighupAppliesTheChangedFileAndKeepsServing() async throws {
        let dir = try TemporaryDirectory("wrl")
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.file("run"), withIntermediateDirectories: true)
        try write(dir, defaultVehicle: "golf")
        let web = try DaemonProcess(arguments: ["--config", dir.file("logbookd.toml")], executable: TestPaths.product("logbook-web"))
        defer { _ = kill(web.pid, SIGKILL) }
        #expect(await eventually(.seconds(20)) { ShutdownTests().port(in: web.log) != nil }, "\(web.log)")
        let client = HTTPTestClient(port: try #require(ShutdownTests().port(in: web.log)))
        let before = try await vehicles(client)
        #expect(before.default == "golf" && before.ids == ["golf", "polo"], "\(before)")

        // The file changes: another default, a third vehicle. One SIGHUP applies both.
        try write(dir, defaultVehicle: "polo", extra: "[[vehicle]]\nid = \"passat\"\nname = \"Passat\"\n")
        var reloads = web.log.components(separatedBy: "web: configuration reloaded").count
        kill(web.pid, SIGHUP)
        #expect(await eventually(.seconds(10)) { web.log.components(separatedBy: "web: configuration reloaded").count > reloads }, "\(web.log)")
        let after = try await vehicles(client)
        #expect(after.default == "polo" && after.ids == ["golf", "polo", "passat"], "\(after)")

        // A mistake in the file: nothing changes, the log names the key, the app still serves.
        try write(dir, defaultVehicle: "golf", extra: "[web.oops]\n")
        kill(web.pid, SIGHUP)
        #expect(await eventually(.seconds(10)) { web.log.contains("web: configuration not reloaded") && web.log.contains("web.oops") }, "\(web.log)")
        #expect(try await vehicles(client).default == "polo")

        // A new address takes a restart: the rest applies, the log says which key waits.
        try write(dir, defaultVehicle: "golf", listen: "127.0.0.1:1")
        reloads = web.log.components(separatedBy: "web: configuration reloaded").count
        kill(web.pid, SIGHUP)
        #expect(await eventually(.seconds(10)) { web.log.components(separatedBy: "web: configuration reloaded").count > reloads }, "\(web.log)")
        #expect(web.log.contains("needs_restart=web.listen"), "\(web.log)")
        let last = try await vehicles(client)
        #expect(last.default == "golf" && last.ids == ["golf", "polo"], "\(last)")
        let stopped = await web.stop()
        #expect(stopped?.0 == 0, "\(web.log)")
        print("web-reload: 3 SIGHUPs: vehicles and default applied, a bad file refused naming web.oops, web.listen named as needing a restart")
    }
}
