// SPDX-License-Identifier: MIT
import ArgumentParser

/// Exit codes of DESIGN.md §3: scripts rely on them.
enum ExitCodes {
    /// A problem was found (e.g. `verify`).
    static let problem = ExitCode(1)
    static let usage = ExitCode(64)
    /// The daemon is not reachable for a command that needs it.
    static let unavailable = ExitCode(69)
    static let config = ExitCode(78)
}
