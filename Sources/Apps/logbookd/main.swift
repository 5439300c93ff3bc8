// SPDX-License-Identifier: MIT
import LogbookDaemon
import LogbookPOSIX

#if canImport(Glibc)
    import Glibc
#endif

// Before any thread exists: block the signals the service group receives through a
// signalfd-backed Dispatch source (threads inherit the mask), and survive a vanished gpsd.
ProcessSignals.prepareDaemon()
// Two malloc arenas shared by every thread rather than one each: 0.35 MiB less at the peak
// (docs/memory.md).
MallocArenas.limit(to: 2)
let request: DaemonArguments.Request
do {
    request = try DaemonArguments.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    printError("logbookd: \(error)\n\n\(DaemonArguments.usage)")
    exit(64)  // EX_USAGE
}
switch request {
case .help:
    print(DaemonArguments.usage)
case .version:
    print(DaemonArguments.versionLine)
case .run(let arguments):
    exit(runBlockingMainThread { await runDaemon(arguments) })
}
