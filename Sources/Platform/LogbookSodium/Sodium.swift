// SPDX-License-Identifier: MIT
internal import CLogbookSodium

/// The journal's cryptography through libsodium: SHA-256 for the hash chain, Ed25519
/// (RFC 8032, deterministic) for checkpoint signatures, and the system's random bytes for
/// new keys. The only module that imports libsodium.
public enum Sodium {
    /// Ed25519 seed (private key) length.
    public static let seedLength = 32
    /// Ed25519 public key length.
    public static let publicKeyLength = 32
    /// Ed25519 signature length.
    public static let signatureLength = 64

    /// `sodium_init()` once per process: it picks the CPU-specific implementations and is
    /// required before `randombytes_buf`. Idempotent and thread-safe; a static `let` runs it once.
    private static let ready: Bool = sodium_init() >= 0

    /// `count` bytes from the kernel's CSPRNG (`getrandom`), for a new signing key.
    public static func randomBytes(_ count: Int) -> [UInt8] {
        precondition(ready, "libsodium failed to initialise")
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            randombytes_buf(buffer.baseAddress!, count)
            initialized = count
        }
    }

    /// The Ed25519 public key of a 32-byte seed (`rawRepresentation` in swift-crypto's terms).
    public static func publicKey(seed: [UInt8]) -> [UInt8]? {
        guard seed.count == seedLength, ready else { return nil }
        var publicKey = [UInt8](repeating: 0, count: publicKeyLength)
        var secretKey = [UInt8](repeating: 0, count: Int(crypto_sign_ed25519_secretkeybytes()))
        defer { zero(&secretKey) }
        guard crypto_sign_ed25519_seed_keypair(&publicKey, &secretKey, seed) == 0 else { return nil }
        return publicKey
    }

    /// The detached Ed25519 signature of `message` by the key with this seed.
    public static func sign(_ message: [UInt8], seed: [UInt8]) -> [UInt8]? {
        guard seed.count == seedLength, ready else { return nil }
        var publicKey = [UInt8](repeating: 0, count: publicKeyLength)
        var secretKey = [UInt8](repeating: 0, count: Int(crypto_sign_ed25519_secretkeybytes()))
        defer { zero(&secretKey) }
        guard crypto_sign_ed25519_seed_keypair(&publicKey, &secretKey, seed) == 0 else { return nil }
        var signature = [UInt8](repeating: 0, count: signatureLength)
        guard crypto_sign_ed25519_detached(&signature, nil, message, UInt64(message.count), secretKey) == 0 else { return nil }
        return signature
    }

    /// Whether `signature` is a valid Ed25519 signature of `message` by `publicKey`.
    public static func isValidSignature(_ signature: [UInt8], for message: [UInt8], publicKey: [UInt8]) -> Bool {
        guard signature.count == signatureLength, publicKey.count == publicKeyLength, ready else { return false }
        return crypto_sign_ed25519_verify_detached(signature, message, UInt64(message.count), publicKey) == 0
    }

    private static func zero(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { sodium_memzero($0.baseAddress, $0.count) }
    }
}

/// Incremental SHA-256 (libsodium's `crypto_hash_sha256_*`).
public struct SHA256Hasher {
    private var state = crypto_hash_sha256_state()

    public init() { crypto_hash_sha256_init(&state) }

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        crypto_hash_sha256_update(&state, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(bytes.count))
    }

    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The digest (32 bytes); the hasher is spent afterwards.
    public mutating func finalize() -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: 32) { buffer, initialized in
            crypto_hash_sha256_final(&state, buffer.baseAddress!)
            initialized = 32
        }
    }

    /// SHA-256 of `bytes` in one call.
    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var h = SHA256Hasher()
        h.update(bytes)
        return h.finalize()
    }
}
