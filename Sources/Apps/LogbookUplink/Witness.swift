// SPDX-License-Identifier: MIT
public import LogbookJournal

/// The outcome of checking a journal against checkpoints kept off the device.
public struct WitnessReport: Sendable, Equatable {
    /// Witness checkpoints checked.
    public var checked = 0
    /// Of those, found in the journal with the same chain head.
    public var matched = 0
    /// Newest witnessed sequence number.
    public var newestWitnessed: UInt64 = 0
    /// Last sequence number of the local journal.
    public var journalLastSequence: UInt64 = 0
    /// What disagrees (empty: the journal agrees with every checkpoint).
    public var problems: [String] = []

    public var ok: Bool { problems.isEmpty && checked > 0 }
}

/// Checks that the local journal agrees with every checkpoint a witness (the fleet store,
/// a file collected from MQTT) received: for each one, the journal must hold a checkpoint at
/// the same sequence number with the same chain head, and the witness's signature must verify.
///
/// A rewritten history (even re-signed with the device's own key), a truncated journal or a
/// replaced key all show up: the chain head at a witnessed sequence cannot be reproduced
/// without the original records.
public enum Witness {
    /// - Parameters:
    ///   - trustedKey: `journal.pub` when known: witness checkpoints must be signed with it.
    public static func check(journalDirectory: String, witness: [JournalCheckpoint], trustedKey: [UInt8]?) throws -> WitnessReport {
        let reader = try JournalReader(directory: journalDirectory)
        var local: [UInt64: [[UInt8]]] = [:]
        for cp in try reader.checkpoints() { local[cp.sequence, default: []].append(cp.head) }
        var report = WitnessReport()
        report.journalLastSequence = try lastSequence(reader)
        for w in witness.sorted(by: { $0.sequence < $1.sequence }) {
            report.checked += 1
            report.newestWitnessed = max(report.newestWitnessed, w.sequence)
            if let k = trustedKey, w.publicKey != k {
                report.problems.append("seq \(w.sequence): the witness checkpoint is signed by another key than journal.pub")
                continue
            }
            guard w.isSignatureValid else {
                report.problems.append("seq \(w.sequence): the witness checkpoint's signature does not verify")
                continue
            }
            if w.sequence > report.journalLastSequence {
                report.problems.append(
                    "seq \(w.sequence): witnessed, but the journal ends at seq \(report.journalLastSequence) (history removed)")
                continue
            }
            guard let heads = local[w.sequence], heads.contains(w.head) else {
                let found = local[w.sequence]?.first.map { "head " + String(Hex.encode($0).prefix(16)) } ?? "no checkpoint"
                report.problems.append(
                    "seq \(w.sequence): witness holds head \(Hex.encode(w.head).prefix(16)), the journal has \(found) (history rewritten)")
                continue
            }
            report.matched += 1
        }
        return report
    }

    static func lastSequence(_ reader: JournalReader) throws -> UInt64 {
        var last: UInt64 = 0
        try reader.forEach { e in
            if case .points(_, let p) = e.record { last = e.sequence + UInt64(max(p.count, 1)) - 1 } else { last = e.sequence }
            return true
        }
        return last
    }
}
