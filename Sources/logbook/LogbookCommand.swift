// SPDX-License-Identifier: MIT
import ArgumentParser

@main
struct LogbookCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logbook",
        abstract: "Read and manage the trips logbookd records.",
        subcommands: [VerifyCommand.self]
    )
}
