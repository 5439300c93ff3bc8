// SPDX-License-Identifier: MIT
import Crypto
import LogbookPOSIX
import LogbookSodium
import Testing

/// HMAC-SHA-256 and HKDF-SHA-256 through libsodium (the web app's session cookies): the RFC
/// vectors, and the same bytes as swift-crypto, which derived the keys of sessions issued before
/// the web app moved to libsodium (a login must survive the upgrade).
@Suite struct HMACSHA256Tests {
    private func bytes(_ hex: String) -> [UInt8] { Hex.decode(hex)! }

    /// RFC 4231 test cases 1, 2 and 6 (a key longer than a block is hashed first).
    @Test func rfc4231Vectors() {
        #expect(
            HMACSHA256.authenticationCode(for: Array("Hi There".utf8), key: [UInt8](repeating: 0x0b, count: 20))
                == bytes("b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"))
        #expect(
            HMACSHA256.authenticationCode(for: Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8))
                == bytes("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"))
        #expect(
            HMACSHA256.authenticationCode(
                for: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
                key: [UInt8](repeating: 0xaa, count: 131))
                == bytes("60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"))
    }

    /// RFC 5869 test cases 1 (salt and info) and 3 (neither).
    @Test func rfc5869Vectors() {
        let ikm = [UInt8](repeating: 0x0b, count: 22)
        #expect(
            HMACSHA256.deriveKey(
                inputKeyMaterial: ikm, salt: bytes("000102030405060708090a0b0c"), info: bytes("f0f1f2f3f4f5f6f7f8f9"),
                outputByteCount: 42)
                == bytes("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"))
        #expect(
            HMACSHA256.deriveKey(inputKeyMaterial: ikm, info: [], outputByteCount: 42)
                == bytes("8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"))
    }

    @Test func swiftCryptoDerivesAndSignsTheSameBytes() {
        for length in [0, 1, 8, 64, 65, 200] {
            let password = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let info = Array("logbook-web session v1".utf8)
            let ours = HMACSHA256.deriveKey(inputKeyMaterial: password, info: info, outputByteCount: 32)
            let theirs = HKDF<SHA256>.deriveKey(
                inputKeyMaterial: SymmetricKey(data: password), info: info, outputByteCount: 32)
            #expect(ours == theirs.withUnsafeBytes { Array($0) }, "\(length) bytes of password")
            let message = Array("1.1700000000.1.\(length)".utf8)
            #expect(
                HMACSHA256.authenticationCode(for: message, key: ours)
                    == Array(HMAC<SHA256>.authenticationCode(for: message, using: theirs)))
        }
    }
}
