// SPDX-License-Identifier: MIT
// `logbook-fuzz HARNESS [libFuzzer flags] [corpus dirs]`. Built by scripts/fuzz.sh with
// `--sanitize=fuzzer --sanitize=address -Xswiftc -DLOGBOOK_FUZZ`, it hands the arguments
// after the harness name to libFuzzer. In the ordinary build (no fuzzer runtime) it replays
// the given files or directories through the harness: the corpus and every crash found
// become regression inputs the normal test run can execute.
#if LOGBOOK_FUZZ
    import CLogbookFuzzer
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// The harness libFuzzer's C callback runs (it cannot capture; set once before the driver starts).
nonisolated(unsafe) private var selected = Harness.control

@main enum LogbookFuzz {
    static func main() {
        let arguments = CommandLine.arguments
        guard arguments.count >= 2, let harness = Harness(rawValue: arguments[1]) else {
            let names = Harness.allCases.map(\.rawValue).joined(separator: "|")
            printError("usage: logbook-fuzz \(names) [libFuzzer flags] [corpus directories or files]")
            exit(64)
        }
        selected = harness
        #if LOGBOOK_FUZZ
            // libFuzzer sees argv without the harness name: argv[1] becomes the program name.
            var argc = CommandLine.argc - 1
            var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv + 1
            argv?[0] = CommandLine.unsafeArgv[0]
            exit(
                LLVMFuzzerRunDriver(&argc, &argv) { data, size in
                    selected.run(UnsafeBufferPointer(start: data, count: size))
                    return 0
                })
        #else
            exit(CorpusReplay.run(harness, paths: Array(arguments.dropFirst(2))))
        #endif
    }
}
