// SPDX-License-Identifier: MIT
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
        let tmp = path + ".tmp"
        _ = unlink(tmp)
        let fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw JournalError.io(JournalIOError(operation: "open", path: tmp, code: errno)) }
        fs.close(fd)
        let wfd = try fs.openForWriting(tmp)
        defer { fs.close(wfd) }
        try fs.write(wfd, Array(key.rawRepresentation), at: 0)
        try fs.sync(wfd)
        guard rename(tmp, path) == 0 else { throw JournalError.io(JournalIOError(operation: "rename", path: path, code: errno)) }
        try writePublicKey(key.publicKey, stateDirectory: stateDirectory)
        try fs.syncDirectory(stateDirectory)
        return key
    }

    static func writePublicKey(_ key: JournalPublicKey, stateDirectory: String) throws {
        let fs = PosixFileSystem()
        let path = stateDirectory + "/" + publicKeyName
        try fs.remove(path)
        let fd = try fs.create(path)
        defer { fs.close(fd) }
        try fs.write(fd, Array((hex(Array(key.rawRepresentation)) + "\n").utf8), at: 0)
        try fs.sync(fd)
    }

    /// Reads `journal.pub` (hex) from the state directory, nil when missing or malformed.
    public static func publicKey(stateDirectory: String) -> JournalPublicKey? {
        guard let text = (try? PosixFileSystem().read(stateDirectory + "/" + publicKeyName)).flatMap({ $0 }) else { return nil }
        let digits = Array(String(decoding: text, as: UTF8.self).utf8.filter { $0 > 32 })
        guard digits.count == 64 else { return nil }
        var raw: [UInt8] = []
        for i in stride(from: 0, to: 64, by: 2) {
            guard let b = UInt8(String(decoding: digits[i..<(i + 2)], as: UTF8.self), radix: 16) else { return nil }
            raw.append(b)
        }
        return try? JournalPublicKey(rawRepresentation: raw)
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let d = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for b in bytes { out.append(d[Int(b >> 4)]); out.append(d[Int(b & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }
}
