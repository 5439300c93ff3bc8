// SPDX-License-Identifier: MIT
import LogbookPOSIX
#if canImport(Glibc)
    import Glibc
#endif

/// The journal's Ed25519 key: `<state-dir>/journal.key` (raw 32 bytes, mode 0600), created on
/// first start, with the public key exported next to it as `journal.pub` (64 hex digits).
public enum JournalKey {
    /// File name of the private key in the state directory.
    public static let privateKeyName = "journal.key"
    /// File name of the exported public key in the state directory.
    public static let publicKeyName = "journal.pub"

    /// Loads the key, creating it (and the state directory) when missing.
    public static func loadOrCreate(stateDirectory: String) throws -> JournalSigningKey {
        let fs = PosixFileSystem()
        let path = stateDirectory + "/" + privateKeyName
        if let raw = try fs.read(path) {
            let key: JournalSigningKey
            do { key = try JournalSigningKey(rawRepresentation: raw) } catch {
                throw JournalError.key("\(path) is not a 32-byte Ed25519 key")
            }
            // Re-export the public key if someone removed it.
            if publicKey(stateDirectory: stateDirectory) == nil {
                try writePublicKey(key.publicKey, stateDirectory: stateDirectory)
            }
            return key
        }
        mkdir(stateDirectory, 0o755)
        let key = JournalSigningKey()
        // Mode 0600 whatever the umask, durable before the first checkpoint is signed with it.
        try write(Array(key.rawRepresentation), to: path, mode: 0o600)
        try writePublicKey(key.publicKey, stateDirectory: stateDirectory)
        return key
    }

    static func writePublicKey(_ key: JournalPublicKey, stateDirectory: String) throws {
        try write(Array((Hex.encode(key.rawRepresentation) + "\n").utf8), to: stateDirectory + "/" + publicKeyName, mode: 0o644)
    }

    /// Replaces a key file through ``AtomicFile`` (never through a symlink or onto a device).
    private static func write(_ bytes: [UInt8], to path: String, mode: UInt32) throws {
        do {
            try AtomicFile.replace(path, with: bytes, mode: mode)
        } catch {
            switch error {
            case .system(let e): throw JournalError.io(JournalIOError(operation: e.operation, path: e.path ?? path, code: e.code))
            case .notRegularFile: throw JournalError.key(error.description)
            }
        }
    }

    /// Reads `journal.pub` (hex) from the state directory, nil when missing or malformed.
    public static func publicKey(stateDirectory: String) -> JournalPublicKey? {
        guard let text = (try? PosixFileSystem().read(stateDirectory + "/" + publicKeyName)).flatMap({ $0 }) else { return nil }
        let digits = String(decoding: text.filter { $0 > 32 }, as: UTF8.self)
        guard digits.utf8.count == 64, let raw = Hex.decode(digits) else { return nil }
        return try? JournalPublicKey(rawRepresentation: raw)
    }

}
