// SPDX-License-Identifier: MIT
import ArgumentParser
import LogbookSettings

/// The directories every `logbook` command may need (docs/architecture.md names these flags).
struct PathOptions: ParsableArguments {
    @Option(name: .customLong("config"), help: "The configuration file (default: /etc/logbook/logbookd.toml when present).")
    var config: String?

    @Option(name: .customLong("state-dir"), help: "State directory (journal, keys, index).")
    var stateDir: String?

    @Option(name: .customLong("runtime-dir"), help: "Runtime directory (live.json, control socket).")
    var runtimeDir: String?

    /// The runtime directory and control socket as the configuration names them (flags and
    /// `LOGBOOK_*`/`LOGBOOKD_*` variables first): every command that talks to logbookd.
    /// - Throws: ``CLIError`` (exit 78) for a bad configuration.
    func daemonPaths() throws -> (runtimeDirectory: String, controlSocket: String) {
        let settings = try ReaderSettings.load(self).daemon
        return (settings.runtimeDirectory, settings.controlSocketPath)
    }
}
