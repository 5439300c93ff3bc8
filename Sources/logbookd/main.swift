// SPDX-License-Identifier: MIT
import ArgumentParser
import LogbookDaemon

// Before any thread exists: block the signals the service group receives through a
// signalfd-backed Dispatch source (threads inherit the mask), and survive a vanished gpsd.
ProcessSignals.prepareDaemon()
do {
    let command = try LogbookdCommand.parseAsRoot()
    guard let daemon = command as? LogbookdCommand else { throw CleanExit.helpRequest(command) }
    try await daemon.run()
} catch {
    LogbookdCommand.exit(withError: error)
}
