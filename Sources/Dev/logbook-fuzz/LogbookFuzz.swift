// SPDX-License-Identifier: MIT
// `logbook-fuzz HARNESS [libFuzzer flags] [corpus dirs]`.
//
// Built by scripts/fuzz.sh with `--sanitize=fuzzer --sanitize=address -Xswiftc -DLOGBOOK_FUZZ`,
// libFuzzer owns `main`; `LLVMFuzzerInitialize` takes the harness name out of argv before
// libFuzzer reads its flags. In the ordinary build (no fuzzer runtime) `main` replays the given
// files or directories through the harness: the seeds and every crash input found become
// regression inputs the normal test run executes.
#if canImport(Glibc)
    import Glibc
#endif

/// The harness the fuzzer's C callback runs (it cannot capture; set once before fuzzing starts).
nonisolated(unsafe) private var selected: Harness?

private func usage() -> Never {
    let names = Harness.allCases.map(\.rawValue).joined(separator: "|")
    printError("usage: logbook-fuzz \(names) [libFuzzer flags] [corpus directories or files]")
    exit(64)
}

#if LOGBOOK_FUZZ
    @_cdecl("LLVMFuzzerInitialize")
    func fuzzerInitialize(
        _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>
    ) -> CInt {
        guard argc.pointee >= 2, let name = argv.pointee[1], let harness = Harness(rawValue: String(cString: name)) else {
            usage()
        }
        selected = harness
        // Drop argv[1] so libFuzzer does not take the harness name for a corpus directory.
        for i in 1..<Int(argc.pointee) { argv.pointee[i] = argv.pointee[i + 1] }
        argc.pointee -= 1
        return 0
    }

    @_cdecl("LLVMFuzzerTestOneInput")
    func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        selected?.run(UnsafeBufferPointer(start: data, count: size))
        return 0
    }
#else
    @main enum LogbookFuzz {
        static func main() {
            let arguments = CommandLine.arguments
            guard arguments.count >= 2, let harness = Harness(rawValue: arguments[1]) else { usage() }
            selected = harness
            exit(CorpusReplay.run(harness, paths: Array(arguments.dropFirst(2))))
        }
    }
#endif
