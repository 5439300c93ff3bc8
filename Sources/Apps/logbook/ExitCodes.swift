// SPDX-License-Identifier: MIT
import ArgumentParser
import LogbookControl

/// Exit codes of docs/architecture.md: scripts rely on them.
enum ExitCodes {
    /// A problem was found (e.g. `verify`).
    static let problem = ExitCode(1)
    static let usage = ExitCode(64)
    /// The daemon is not reachable for a command that needs it.
    static let unavailable = ExitCode(69)
    static let config = ExitCode(78)
}

extension ControlClient.Failure {
    /// The documented exit code for this failure: 69 unreachable, 1 refused.
    var cliError: CLIError {
        switch self {
        case .unreachable(let why): .unavailable(why)
        case .refused: .problem(description)
        }
    }
}
