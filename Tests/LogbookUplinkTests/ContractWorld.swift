// SPDX-License-Identifier: MIT
import Foundation
import LogbookControl
import LogbookCore
import LogbookRecords
import LogbookTestSupport

/// The processes of the contract test around one journal and one configuration file: the
/// `logbook` CLI, `logbookd` (its control socket is the web app's way in), `logbook-web`,
/// `logbook-uplink` with mosquitto and PostgreSQL.
final class ContractWorld: @unchecked Sendable {
    // @unchecked: owned by one test.
    let dir: TemporaryDirectory
    let config: String
    let webPort = freePort()
    private(set) var daemon: Child?
    private(set) var web: Child?

    init(dir: TemporaryDirectory, broker: Mosquitto, pg: PostgresCluster) throws {
        self.dir = dir
        config = dir.file("logbookd.toml")
        try """
            state_dir = "\(dir.file("state"))"
            runtime_dir = "\(dir.file("run"))"
            [gpsd]
            address = "127.0.0.1:\(freePort())"
            [[vehicle]]
            id = "golf"
            name = "Golf"
            make = "VW"
            [uplink]
            state_dir = "\(dir.file("uplink"))"
            runtime_dir = "\(dir.file("uplink/run"))"
            poll_interval_s = 0.2
            [uplink.mqtt]
            host = "127.0.0.1"
            port = \(broker.port)
            drain_points_per_s = 0
            [uplink.postgres]
            url = "\(pg.url)"
            """.write(toFile: config, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: dir.file("run"), withIntermediateDirectories: true)
    }

    /// Runs `logbook ARGS --config FILE`; its exit status and output.
    @discardableResult
    func cli(_ arguments: [String]) throws -> (Int32, String) {
        try run(TestPaths.product("logbook"), arguments + ["--config", config])
    }

    /// Runs a CLI read that prints JSON.
    func cliJSON(_ arguments: [String]) throws -> JSONValue {
        let (status, out) = try cli(arguments)
        guard status == 0, let json = try? JSONValue.parse(out) else { throw ServerError.failed("logbook \(arguments): \(status) \(out)") }
        return json
    }

    /// Starts logbookd and waits for its control socket.
    func startDaemon() async throws {
        daemon = try Child(TestPaths.product("logbookd"), ["--config", config], output: dir.file("logbookd.log"))
        let socket = dir.file("run/control.sock")
        guard await eventually(.seconds(30), { (try? ControlClient(socketPath: socket)) != nil }) else {
            throw ServerError.failed("logbookd did not listen: \(daemon?.log ?? "")")
        }
    }

    /// A write as the web app makes it: the request of `EntryCommand` `name` with origin
    /// `web`, validated by `draft` as the app validates it, sent through the control socket.
    /// Returns the journal sequence of the entry.
    @discardableResult
    func webWrite(_ name: String, _ fields: [(String, JSONValue)]) throws -> UInt64 {
        let request = JSONValue.object([("cmd", .string(name))] + fields + [("origin", .string("web"))])
        guard let command = EntryCommand.named(name) else { throw ServerError.failed("no command \(name)") }
        _ = try command.draft(request, now: GPSTime(nanoseconds: Int64(Date().timeIntervalSince1970 * 1e9)))
        let client = try ControlClient(socketPath: dir.file("run/control.sock"))
        let (reply, text) = try client.call(request)
        guard reply["ok"]?.boolValue == true, let seq = reply["seq"]?.doubleValue else { throw ServerError.failed("\(name): \(text)") }
        return UInt64(seq)
    }

    /// Starts logbook-web on a loopback port (no password there) and waits for it.
    func startWeb() async throws {
        web = try Child(TestPaths.product("logbook-web"), ["--config", config, "--listen", "127.0.0.1:\(webPort)"],
                        output: dir.file("web.log"))
        guard await eventually(.seconds(30), { listening(webPort) }) else { throw ServerError.failed("logbook-web: \(web?.log ?? "")") }
    }

    /// `GET path` from the web app: the body.
    func http(_ path: String) throws -> String {
        let (status, out) = try run("/usr/bin/curl", ["-sS", "-f", "http://127.0.0.1:\(webPort)" + path])
        guard status == 0 else { throw ServerError.failed("GET \(path): \(out)") }
        return out
    }

    func httpJSON(_ path: String) throws -> JSONValue {
        let body = try http(path)
        guard let json = try? JSONValue.parse(body) else { throw ServerError.failed("GET \(path): not JSON: \(body.prefix(200))") }
        return json
    }

    func stop() {
        web?.stop()
        daemon?.stop()
    }

    deinit { stop() }
}

/// A CSV document as rows of fields (RFC 4180 quoting).
func csvRows(_ text: String) -> [[String]] {
    var rows: [[String]] = [], row: [String] = [], field = "", quoted = false
    var chars = Array(text)[...]
    while let c = chars.popFirst() {
        if quoted {
            if c == "\"" {
                if chars.first == "\"" { field.append("\""); chars.removeFirst() } else { quoted = false }
            } else { field.append(c) }
        } else if c == "\"" {
            quoted = true
        } else if c == "," {
            row.append(field)
            field = ""
        } else if c == "\n" {
            row.append(field)
            rows.append(row)
            row = []
            field = ""
        } else if c != "\r" {
            field.append(c)
        }
    }
    if !field.isEmpty || !row.isEmpty { rows.append(row + [field]) }
    return rows
}
