// SPDX-License-Identifier: MIT
internal import LogbookSodium

/// The journal's Ed25519 signing key (RFC 8032; `rawRepresentation` is the 32-byte seed, the
/// `journal.key` file). Through libsodium rather than swift-crypto, whose BoringSSL module and
/// Foundation `Data` were 0.9 MiB of the code logbookd runs (docs/memory.md); signatures are
/// the same bytes either way (Ed25519 is deterministic; JournalSigningTests checks both ways).
public struct JournalSigningKey: Sendable {
    public let rawRepresentation: [UInt8]
    public let publicKey: JournalPublicKey

    /// A new key from the kernel's random number generator.
    public init() {
        let seed = Sodium.randomBytes(Sodium.seedLength)
        // Any 32 bytes are an Ed25519 seed; only a libsodium that failed to start refuses.
        guard let publicKey = Sodium.publicKey(seed: seed) else { preconditionFailure("libsodium cannot derive an Ed25519 key") }
        self.rawRepresentation = seed
        self.publicKey = JournalPublicKey(checked: publicKey)
    }

    public init(rawRepresentation seed: [UInt8]) throws(JournalKeyError) {
        guard let publicKey = Sodium.publicKey(seed: seed) else { throw JournalKeyError() }
        self.rawRepresentation = seed
        self.publicKey = JournalPublicKey(checked: publicKey)
    }

    /// The detached signature (64 bytes) of `message`.
    public func signature(for message: [UInt8]) throws(JournalKeyError) -> [UInt8] {
        guard let signature = Sodium.sign(message, seed: rawRepresentation) else { throw JournalKeyError() }
        return signature
    }
}

/// An Ed25519 public key (32 bytes; `journal.pub` holds it in hex).
public struct JournalPublicKey: Sendable, Equatable {
    public let rawRepresentation: [UInt8]

    public init(rawRepresentation: [UInt8]) throws(JournalKeyError) {
        guard rawRepresentation.count == Sodium.publicKeyLength else { throw JournalKeyError() }
        self.rawRepresentation = rawRepresentation
    }

    fileprivate init(checked: [UInt8]) { rawRepresentation = checked }

    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        Sodium.isValidSignature(signature, for: message, publicKey: rawRepresentation)
    }
}

/// Bytes that are not an Ed25519 key (or a signature that could not be made).
public struct JournalKeyError: Error, Equatable {
    public init() {}
}

/// SHA-256, for the hash chain. libsodium's is portable C: on the journal bench it verifies at
/// 73 MB/s against swift-crypto's 83 MB/s (same machine and session), a difference that did
/// not justify a second implementation for the readers.
enum JournalHash {
    /// `SHA-256(first ‖ second)`; two parameters rather than a variadic list, which would
    /// allocate an array for every record verified.
    static func sha256(_ first: [UInt8], _ second: [UInt8] = []) -> [UInt8] {
        var hasher = SHA256Hasher()
        hasher.update(first)
        hasher.update(second)
        return hasher.finalize()
    }
}
