// SPDX-License-Identifier: MIT
import LogbookPOSIX
import LogbookUplink
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
let request: UplinkArguments.Request
do {
    request = try UplinkArguments.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    let usage = CommandLine.arguments.dropFirst().first == "witness" ? UplinkArguments.witnessUsage : UplinkArguments.usage
    RunUplink.printError("logbook-uplink: \(error)\n\n\(usage)")
    exit(64)  // EX_USAGE
}
switch request {
case .help(let text):
    print(text)
case .version:
    print(UplinkArguments.versionLine)
case .witness(let store, let device):
    exit(RunWitness.run(store: store, device: device))
case .run(let arguments):
    // The main thread parked on a semaphore rather than an async top level, as logbookd's
    // (its end would read the unwind tables into memory for good: docs/memory.md).
    exit(runBlockingMainThread { await RunUplink.run(arguments) })
}
