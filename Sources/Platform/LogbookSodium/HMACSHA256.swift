// SPDX-License-Identifier: MIT
internal import CLogbookSodium

/// HMAC-SHA-256 (RFC 2104, keys of any length) through libsodium's `crypto_auth_hmacsha256_*`,
/// and HKDF-SHA-256 (RFC 5869) built on it: the web app's session cookies and CSRF tokens.
public enum HMACSHA256 {
    /// The length of a code, bytes.
    public static let byteCount = 32

    /// The authentication code of `message` under `key`.
    public static func authenticationCode(for message: [UInt8], key: [UInt8]) -> [UInt8] {
        var state = crypto_auth_hmacsha256_state()
        crypto_auth_hmacsha256_init(&state, key, key.count)
        crypto_auth_hmacsha256_update(&state, message, UInt64(message.count))
        return [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initialized in
            crypto_auth_hmacsha256_final(&state, buffer.baseAddress!)
            initialized = byteCount
        }
    }

    /// HKDF-SHA-256: extract a pseudorandom key from `inputKeyMaterial` with `salt` (empty: the
    /// RFC's string of zeros), then expand it with `info` to `outputByteCount` bytes (at most
    /// 255 × 32).
    public static func deriveKey(
        inputKeyMaterial: [UInt8], salt: [UInt8] = [], info: [UInt8], outputByteCount: Int
    ) -> [UInt8] {
        precondition(outputByteCount >= 0 && outputByteCount <= 255 * byteCount, "HKDF output too long")
        let pseudorandomKey = authenticationCode(for: inputKeyMaterial, key: salt)
        var output: [UInt8] = []
        output.reserveCapacity(outputByteCount + byteCount)
        var block: [UInt8] = []
        var counter: UInt8 = 1
        while output.count < outputByteCount {
            block = authenticationCode(for: block + info + [counter], key: pseudorandomKey)
            output += block
            counter &+= 1
        }
        return Array(output.prefix(outputByteCount))
    }
}
