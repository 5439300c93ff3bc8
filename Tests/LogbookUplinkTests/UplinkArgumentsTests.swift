// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookUplink
import Testing

@Suite struct UplinkArgumentsTests {
    @Test func everyOptionAndTheFlag() throws {
        let request = try UplinkArguments.parse([
            "--config", "/etc/l.toml", "--state-dir=/var/lib/up", "--journal-dir", "/var/lib/logbook/journal",
            "--live-file", "/run/logbook/live.json", "--device-id=pi", "--log-level", "debug", "--exit-when-idle",
        ])
        #expect(request == .run(UplinkArguments(
            configFile: "/etc/l.toml",
            overrides: .init(stateDirectory: "/var/lib/up", journalDirectory: "/var/lib/logbook/journal",
                             liveFile: "/run/logbook/live.json", deviceID: "pi", logLevel: "debug"),
            exitWhenIdle: true)))
        #expect(try UplinkArguments.parse([]) == .run(UplinkArguments()))
    }

    @Test func witnessHelpAndVersion() throws {
        #expect(try UplinkArguments.parse(["witness", "--store", "postgres://h/fleet", "--device=lb-1"])
            == .witness(store: "postgres://h/fleet", device: "lb-1"))
        #expect(try UplinkArguments.parse(["--help"]) == .help(UplinkArguments.usage))
        #expect(try UplinkArguments.parse(["witness", "-h"]) == .help(UplinkArguments.witnessUsage))
        #expect(try UplinkArguments.parse(["--config", "f", "--version"]) == .version)
        #expect(UplinkArguments.usage.contains("--journal-dir DIR") && UplinkArguments.usage.contains("--exit-when-idle"))
    }

    @Test func badCommandLinesNameTheArgument() {
        let cases: [([String], String)] = [
            (["--confg", "f"], "unknown option '--confg'"),
            (["--exit-when-idle=yes"], "'--exit-when-idle' takes no value"),
            (["--state-dir"], "missing value for '--state-dir'"),
            (["--device-id="], "empty value for '--device-id'"),
            (["run"], "unexpected argument 'run'"),
            (["witness", "--store", "x"], "witness: missing '--device'"),
            (["witness", "--device", "d"], "witness: missing '--store'"),
            (["witness", "--config", "f"], "unknown option '--config'"),
        ]
        for (arguments, message) in cases {
            #expect(throws: LongOptions.UsageError(description: message), "\(arguments)") {
                try UplinkArguments.parse(arguments)
            }
        }
    }
}
