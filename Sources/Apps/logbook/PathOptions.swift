// SPDX-License-Identifier: MIT
import ArgumentParser

/// The directories every `logbook` command may need (DESIGN.md §3 names these flags).
struct PathOptions: ParsableArguments {
    @Option(name: .customLong("config"), help: "The configuration file (default: /etc/logbook/logbookd.toml when present).")
    var config: String?

    @Option(name: .customLong("state-dir"), help: "State directory (journal, keys, index).")
    var stateDir: String?

    @Option(name: .customLong("runtime-dir"), help: "Runtime directory (live.json, control socket).")
    var runtimeDir: String?

    /// `--state-dir`, else `LOGBOOK_STATE_DIR`/`LOGBOOKD_STATE_DIR`, else `/var/lib/logbook`.
    var stateDirectory: String {
        stateDir ?? Environment.value("LOGBOOK_STATE_DIR") ?? Environment.value("LOGBOOKD_STATE_DIR")
            ?? "/var/lib/logbook"
    }

    /// `--runtime-dir`, else `LOGBOOK_RUNTIME_DIR`/`LOGBOOKD_RUNTIME_DIR`, else `/run/logbook`.
    var runtimeDirectory: String {
        runtimeDir ?? Environment.value("LOGBOOK_RUNTIME_DIR")
            ?? Environment.value("LOGBOOKD_RUNTIME_DIR") ?? "/run/logbook"
    }

    /// `<state-dir>/journal`.
    var journalDirectory: String { stateDirectory + "/journal" }
}
