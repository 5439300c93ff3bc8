// SPDX-License-Identifier: MIT
import ArgumentParser

/// Placeholder until the journal lands (issue 3 replaces this file).
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify", abstract: "Check the journal's CRCs, hash chain and signatures.")
    @OptionGroup var paths: PathOptions
    func run() async throws { throw ExitCodes.problem }
}
