// SPDX-License-Identifier: MIT
import ArgumentParser
import LogbookJournal
#if canImport(Glibc)
    import Glibc
#endif

/// `logbook verify [--from SEQ]`: checks CRCs, the hash chain and checkpoint signatures.
/// Exit 0 when intact, 1 (``ExitCodes/problem``) naming the first bad record otherwise.
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify", abstract: "Check the journal's CRCs, hash chain and signatures.")
    @OptionGroup var paths: PathOptions

    @Option(name: .customLong("from"), help: "Skip segments that end before this sequence number.")
    var from: UInt64 = 0

    func run() async throws {
        let directory = paths.journalDirectory
        // A progress line only for a person watching (stderr is a terminal), never in logs.
        let tty = isatty(STDERR_FILENO) != 0
        var lastShown = 0
        let report = verifyJournal(directory: directory, stateDirectory: paths.stateDirectory, from: from) {
            done, total in
            guard tty, total > 0, done - lastShown >= 16 << 20 || done == total else { return }
            lastShown = done
            writeStderr("\rverifying: \(done >> 20) / \(total >> 20) MiB")
        }
        if tty && lastShown > 0 { writeStderr("\n") }
        print("journal: \(directory)")
        print("segments: \(report.segments), bytes: \(report.bytes), last seq: \(report.lastSequence)")
        print("records: \(report.records), points: \(report.points), trips: \(report.trips)")
        let keyNote = report.keyTrusted ? "against journal.pub" : "against the key named in the journal (journal.pub missing)"
        print("checkpoints: \(report.checkpoints) signatures verified \(keyNote)")
        for note in report.notes { print("note: \(note)") }
        if let problem = report.problem {
            print("PROBLEM: \(problem)")
            throw ExitCodes.problem
        }
        print("OK")
    }
}

private func writeStderr(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
}
