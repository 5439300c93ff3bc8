// SPDX-License-Identifier: MIT
import LogbookDaemon
import LogbookSettings
import Testing

@Suite struct DaemonArgumentsTests {
    @Test func everyOptionInBothSpellings() throws {
        let spaced = try DaemonArguments.parse([
            "--config", "/etc/l.toml", "--gpsd", "127.0.0.1:2947", "--state-dir", "/var/lib/logbook",
            "--runtime-dir", "/run/logbook", "--log-level", "debug",
        ])
        let joined = try DaemonArguments.parse([
            "--config=/etc/l.toml", "--gpsd=127.0.0.1:2947", "--state-dir=/var/lib/logbook",
            "--runtime-dir=/run/logbook", "--log-level=debug",
        ])
        let want = DaemonArguments(
            configFile: "/etc/l.toml",
            overrides: .init(gpsd: "127.0.0.1:2947", stateDirectory: "/var/lib/logbook", runtimeDirectory: "/run/logbook", logLevel: "debug"))
        #expect(spaced == .run(want))
        #expect(joined == .run(want))
        #expect(try DaemonArguments.parse([]) == .run(DaemonArguments()))
        // An IPv6 gpsd address keeps everything after the first "=".
        #expect(try DaemonArguments.parse(["--gpsd=[::1]:2947"]) == .run(DaemonArguments(overrides: .init(gpsd: "[::1]:2947"))))
    }

    @Test func helpWinsAnywhere() throws {
        #expect(try DaemonArguments.parse(["--help"]) == .help)
        #expect(try DaemonArguments.parse(["--gpsd", "x:1", "-h"]) == .help)
        #expect(DaemonArguments.usage.contains("--runtime-dir DIR"))
    }

    @Test func versionIsARequestOfItsOwn() throws {
        #expect(try DaemonArguments.parse(["--version"]) == .version)
        #expect(try DaemonArguments.parse(["--config", "f", "--version"]) == .version)
        #expect(DaemonArguments.usage.contains("--version"))
    }

    @Test func badCommandLinesNameTheArgument() {
        let cases: [([String], String)] = [
            (["--gsd", "x:1"], "unknown option '--gsd'"),
            (["--gpsd"], "missing value for '--gpsd'"),
            (["--gpsd", "--config", "f"], "missing value for '--gpsd'"),
            (["--config="], "empty value for '--config'"),
            (["run"], "unexpected argument 'run'"),
            (["-v"], "unexpected argument '-v'"),
        ]
        for (arguments, message) in cases {
            #expect(throws: DaemonArguments.UsageError(description: message), "\(arguments)") {
                try DaemonArguments.parse(arguments)
            }
        }
    }
}
