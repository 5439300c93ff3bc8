// SPDX-License-Identifier: MIT
import Crypto
@testable import LogbookJournal
import LogbookPOSIX
import Testing

/// The journal signs and hashes through libsodium; journals written before the switch (by
/// swift-crypto) and verifiers using another library must agree with it byte for byte:
/// swift-crypto, a test dependency only, is that second library here.
@Suite struct JournalSigningTests {
    /// RFC 8032 section 7.1, TEST 2: a one-byte message.
    @Test func rfc8032VectorThroughLibsodium() throws {
        let key = try JournalSigningKey(rawRepresentation: hex("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb"))
        #expect(key.publicKey.rawRepresentation == hex("3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c"))
        let signature = try key.signature(for: [0x72])
        #expect(signature == hex(
            "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da"
                + "085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"))
        #expect(key.publicKey.isValidSignature(signature, for: [0x72]))
        #expect(!key.publicKey.isValidSignature(signature, for: [0x73]))
    }

    @Test func swiftCryptoAndLibsodiumMakeAndAcceptTheSameSignatures() throws {
        for length in [0, 1, 77, 4096] {
            let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            let ours = JournalSigningKey()
            let theirs = try Curve25519.Signing.PrivateKey(rawRepresentation: ours.rawRepresentation)
            #expect(Array(theirs.publicKey.rawRepresentation) == ours.publicKey.rawRepresentation)
            let signed = try ours.signature(for: message)
            // Ed25519 is deterministic: the same key and message give the same 64 bytes.
            #expect(Array(try theirs.signature(for: message)) == signed)
            #expect(theirs.publicKey.isValidSignature(signed, for: message))
            let signedBySwiftCrypto = Array(try theirs.signature(for: message))
            #expect(ours.publicKey.isValidSignature(signedBySwiftCrypto, for: message))
            var tampered = signed
            tampered[length % 64] ^= 1
            #expect(!theirs.publicKey.isValidSignature(tampered, for: message))
            #expect(!ours.publicKey.isValidSignature(tampered, for: message))
        }
    }

    @Test func theChainHashIsTheSameSHA256ThroughLibsodiumAndSwiftCrypto() {
        let head = (0..<32).map { UInt8($0) }
        for length in [0, 1, 31, 32, 55, 56, 64, 200, 5000] {
            let payload = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 1) }
            var reference = SHA256()
            reference.update(data: head)
            reference.update(data: payload)
            #expect(JournalHash.sha256(head, payload) == Array(reference.finalize()), "\(length) bytes")
        }
        // NIST FIPS 180-2 example: SHA-256("abc").
        #expect(JournalHash.sha256(Array("abc".utf8)) == hex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"))
    }

    @Test func badKeysAreRefused() {
        #expect(throws: JournalKeyError()) { try JournalSigningKey(rawRepresentation: [1, 2, 3]) }
        #expect(throws: JournalKeyError()) { try JournalPublicKey(rawRepresentation: Array(repeating: 0, count: 31)) }
        #expect(JournalSigningKey().rawRepresentation != JournalSigningKey().rawRepresentation, "fresh keys are random")
    }

    private func hex(_ text: String) -> [UInt8] { Hex.decode(text)! }
}
