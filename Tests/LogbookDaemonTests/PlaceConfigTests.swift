// SPDX-License-Identifier: MIT
import Foundation
import LogbookTestSupport
import Testing

/// `[places] hysteresis_m`: a bad value is a config error naming the key (exit 78); a good one
/// is accepted by the daemon and by the readers that share the `[places]` table.
@Suite struct PlaceConfigTests {
    func write(_ dir: TemporaryDirectory, _ value: String) throws -> String {
        let path = dir.file("logbookd.toml")
        try """
            state_dir = "\(dir.file("state"))"
            runtime_dir = "\(dir.file("run"))"
            [gpsd]
            address = "127.0.0.1:1"
            [places]
            hysteresis_m = \(value)
            """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(.timeLimit(.minutes(1)), arguments: ["-5", "\"fifty\"", "true"])
    func aBadHysteresisIsAConfigErrorNamingTheKey(_ value: String) async throws {
        let dir = try TemporaryDirectory("place-cfg")
        defer { dir.remove() }
        let d = try DaemonProcess(arguments: ["--config", try write(dir, value)])
        let status = await d.waitForExit(timeout: .seconds(20))
        #expect(status == 78, "exit \(String(describing: status)): \(d.log)")
        #expect(d.log.contains("places.hysteresis_m"), "\(d.log)")
    }

    @Test(.timeLimit(.minutes(1)))
    func theReadersAcceptTheDaemonsKeyInTheirPlacesTable() async throws {
        let dir = try TemporaryDirectory("place-cfg-ok")
        defer { dir.remove() }
        let cfg = try write(dir, "30")
        let r = try await runLogbook(["places", "list", "--config", cfg])
        #expect(r.status != 78, "logbook refused [places] hysteresis_m: \(r.err)")
        let bad = try await runLogbook(["places", "list", "--config", try write(dir, "-1")])
        #expect(bad.status == 78 && bad.err.contains("places.hysteresis_m"), "\(bad.status) \(bad.err)")
    }
}
