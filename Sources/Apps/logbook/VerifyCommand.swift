// SPDX-License-Identifier: MIT
import ArgumentParser
import LogbookJournal
import LogbookUplink
#if canImport(Glibc)
    import Glibc
#endif

/// `logbook verify [--from SEQ] [--witness postgres://…|FILE]`: checks CRCs, the hash chain and
/// checkpoint signatures, and with `--witness` that the journal agrees with every checkpoint
/// kept off the device. Exit 0 when intact, 1 (``ExitCodes/problem``) naming the first bad
/// record or disagreeing checkpoint otherwise.
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify", abstract: "Check the journal's CRCs, hash chain and signatures.")
    @OptionGroup var paths: PathOptions

    @Option(name: .customLong("from"), help: "Skip segments that end before this sequence number.")
    var from: UInt64 = 0

    @Option(name: .customLong("witness"), help: "Also check against the checkpoints in the fleet store (postgres://…) or in a file collected from MQTT.")
    var witness: String?

    @Option(name: .customLong("device-id"), help: "The device id the witness knows this journal by (default: [uplink] device_id, else derived from the key).")
    var deviceID: String?

    func run() async throws {
        // `--state-dir`, else the one the configuration names, else the default.
        let settings = try withExitCodesSync { try ReaderSettings.load(paths) }
        let directory = settings.journalDirectory, stateDirectory = settings.stateDirectory
        // A progress line only for a person watching (stderr is a terminal), never in logs.
        let tty = isatty(STDERR_FILENO) != 0
        var lastShown = 0
        let report = verifyJournal(directory: directory, stateDirectory: stateDirectory, from: from) {
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
        var failed = false
        if let problem = report.problem {
            print("PROBLEM: \(problem)")
            failed = true
        }
        if let witness, try !checkWitness(witness, directory: directory, stateDirectory: stateDirectory) { failed = true }
        if failed { throw ExitCodes.problem }
        print("OK")
    }
}

extension VerifyCommand {
    /// Prints the witness check; false when the journal disagrees with the witness.
    func checkWitness(_ source: String, directory: String, stateDirectory: String) throws -> Bool {
        let trusted = Uplink.trustedKey(stateDirectory: stateDirectory)
        let device = try witnessDevice(directory: directory, trusted: trusted)
        let (checkpoints, origin) = try withExitCodesSync { try WitnessSource.checkpoints(from: source, device: device) }
        print("witness: \(checkpoints.count) checkpoints of device \(device) from \(origin)")
        guard !checkpoints.isEmpty else {
            print("PROBLEM: witness: no checkpoint of device \(device) (wrong --device-id, or nothing uploaded yet)")
            return false
        }
        let report = try Witness.check(journalDirectory: directory, witness: checkpoints, trustedKey: trusted)
        print("witness: \(report.matched) of \(report.checked) agree (newest witnessed seq \(report.newestWitnessed), journal ends at seq \(report.journalLastSequence))")
        for p in report.problems.prefix(5) { print("PROBLEM: witness: \(p)") }
        if report.problems.count > 5 { print("PROBLEM: witness: \(report.problems.count - 5) more") }
        return report.ok
    }

    private func witnessDevice(directory: String, trusted: [UInt8]?) throws -> String {
        if let deviceID { return deviceID }
        let config = try UplinkCommand.configuration(file: paths.config, paths: paths, uplinkDir: nil)
        if let id = config.deviceID { return id }
        let key = try trusted ?? JournalReader(directory: directory).publicKey()
        guard let key else { throw ExitCodes.problem }
        return DeviceIdentity.derivedID(publicKey: key)
    }

    private func withExitCodesSync<R>(_ body: () throws -> R) throws -> R {
        do { return try body() } catch let error as CLIError {
            writeStderr("logbook: \(error)\n")
            throw error.exitCode
        }
    }
}

private func writeStderr(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
}
