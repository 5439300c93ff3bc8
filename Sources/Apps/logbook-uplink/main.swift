// SPDX-License-Identifier: MIT
import ArgumentParser
#if canImport(Glibc)
    import Glibc
#endif

// Before any thread exists: block the signals the service group receives (threads inherit
// the mask), and survive a broker or database that closed its socket (libmosquitto, libpq).
var blocked = sigset_t()
sigemptyset(&blocked)
for s in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&blocked, s) }
pthread_sigmask(SIG_BLOCK, &blocked, nil)
signal(SIGPIPE, SIG_IGN)
do {
    let command = try UplinkCommand.parseAsRoot()
    if let uplink = command as? UplinkCommand {
        try await uplink.run()
    } else if let witness = command as? WitnessCommand {
        try witness.run()
    } else {
        var other = command  // help
        try other.run()
    }
} catch {
    UplinkCommand.exit(withError: error)
}
