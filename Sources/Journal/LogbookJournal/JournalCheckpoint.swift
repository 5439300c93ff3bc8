// SPDX-License-Identifier: MIT
public import LogbookCore

/// A signed checkpoint as read back from the journal: "after sequence `sequence` the chain
/// head is `head`", signed with the journal's Ed25519 key.
///
/// Copies kept off the device (the fleet store, an MQTT collector) are a witness: a journal
/// rewritten later, even re-signed with the stolen key, no longer holds these heads.
public struct JournalCheckpoint: Sendable, Hashable {
    /// The last user sequence number before the checkpoint.
    public var sequence: UInt64
    /// SHA-256 chain head after that record (32 bytes).
    public var head: [UInt8]
    /// GPS time of the last point before it, when known.
    public var gpsTime: GPSTime?
    /// `CLOCK_MONOTONIC` of the writer when it signed.
    public var monotonicNanoseconds: UInt64
    /// Ed25519 signature (64 bytes).
    public var signature: [UInt8]
    /// The public key the segment names (32 bytes).
    public var publicKey: [UInt8]

    /// Creates a checkpoint (e.g. one received from a witness).
    public init(
        sequence: UInt64, head: [UInt8], gpsTime: GPSTime?, monotonicNanoseconds: UInt64, signature: [UInt8],
        publicKey: [UInt8]
    ) {
        self.sequence = sequence
        self.head = head
        self.gpsTime = gpsTime
        self.monotonicNanoseconds = monotonicNanoseconds
        self.signature = signature
        self.publicKey = publicKey
    }

    /// The bytes the signature covers (domain-separated, see docs/journal.md).
    public var signedMessage: [UInt8] {
        JournalCore.checkpointMessage(
            sequence: sequence, head: head, gpsTime: gpsTime?.nanoseconds, monotonic: monotonicNanoseconds)
    }

    /// True when the signature verifies against ``publicKey``.
    public var isSignatureValid: Bool { verifies(with: publicKey) }

    /// True when the signature verifies against `key` (32 raw bytes).
    public func verifies(with key: [UInt8]) -> Bool {
        guard let k = try? JournalPublicKey(rawRepresentation: key) else { return false }
        return k.isValidSignature(signature, for: signedMessage)
    }

    init(_ cp: Checkpoint, sequence: UInt64, publicKey: [UInt8]) {
        self.init(
            sequence: sequence, head: cp.head, gpsTime: cp.gpsTime.map { GPSTime(nanoseconds: $0) },
            monotonicNanoseconds: cp.monotonicNanoseconds, signature: cp.signature, publicKey: publicKey)
    }
}

extension JournalReader {
    /// Every checkpoint in the readable journal, in order (up to ``limit``).
    public func checkpoints() throws -> [JournalCheckpoint] {
        var out: [JournalCheckpoint] = []
        var key: [UInt8] = []
        try Self.walk(fs: PosixFileSystem(), directory: directory, limit: limit ?? UInt64.max) { _, seq, record in
            switch record {
            case .header(let h): key = h.publicKey
            case .checkpoint(let cp): out.append(JournalCheckpoint(cp, sequence: seq, publicKey: key))
            default: break
            }
            return true
        }
        return out
    }

    /// The signing key the newest segment names (32 raw bytes), nil for an empty journal.
    public func publicKey() throws -> [UInt8]? {
        let fs = PosixFileSystem()
        for name in SegmentName.segments(in: try fs.list(directory)).reversed() {
            // The header opens the segment's first block: not the whole preallocated file (4 MiB
            // of it read at every uplink start was the uplink's peak memory).
            let first = try fs.read(directory + "/" + name.fileName, from: 0, count: Framing.blockSize)
            if let h = Self.header(of: first ?? []) { return h.publicKey }
        }
        return nil
    }
}
