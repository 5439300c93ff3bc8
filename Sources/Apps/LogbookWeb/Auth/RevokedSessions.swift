// SPDX-License-Identifier: MIT
internal import LogbookCore
package import LogbookPOSIX
#if canImport(Glibc)
    internal import Glibc
#endif

/// The sessions ended by logout, kept on disk so that a restart does not bring them back:
/// `<web state dir>/sessions.json`, mode 0600, replaced atomically at every logout.
///
/// Bounded: at most ``limit`` unexpired entries (``defaultLimit``). One more ends every session at once
/// instead (the *generation* goes up; cookies are signed with a key that includes it), so a
/// flood of logins and logouts can neither grow the file nor push an old logout out of it.
package struct RevokedSessions: Sendable {
    /// What the file holds.
    package struct Contents: Sendable, Equatable {
        /// Bumped to end every session issued before.
        package var generation: UInt64 = 0
        /// Session nonce → when its cookie would have expired anyway (seconds since 1970).
        package var revoked: [String: Double] = [:]
        package init(generation: UInt64 = 0, revoked: [String: Double] = [:]) {
            self.generation = generation
            self.revoked = revoked
        }
    }

    /// Entries kept before the generation goes up instead (about 70 bytes each on disk, so the
    /// file stays under 700 KB).
    package static let defaultLimit = 10_000

    package let path: String
    /// Unexpired entries kept at most.
    package let limit: Int

    package init(path: String, limit: Int = defaultLimit) {
        self.path = path
        self.limit = limit
    }

    /// Reads the file; nothing revoked when it does not exist yet.
    ///
    /// - Throws: ``AtomicFileError`` when it cannot be read, or `nil` contents when it is not
    ///   a sessions file (the caller then ends every session).
    package func load() throws(AtomicFileError) -> Contents? {
        var st = stat()
        guard lstat(path, &st) == 0 else {
            if errno == ENOENT { return Contents() }
            throw .system(.current("lstat", path: path))
        }
        guard st.st_mode & S_IFMT == S_IFREG else { throw .notRegularFile(path: path, kind: FileKind(mode: UInt32(st.st_mode))) }
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw .system(.current("open", path: path)) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .system(.current("read", path: path))
            }
            if n == 0 { break }
            bytes += chunk[0..<n]
        }
        guard let json = try? JSONValue.parse(bytes), let generation = json["generation"]?.doubleValue,
            generation >= 0, generation < 9e15, case .object(let members)? = json["revoked"]
        else { return nil }
        var contents = Contents(generation: UInt64(generation))
        for (nonce, expires) in members {
            guard let e = expires.doubleValue else { return nil }
            contents.revoked[nonce] = e
        }
        return contents
    }

    /// Replaces the file (durably, mode 0600 whatever the umask).
    package func save(_ contents: Contents) throws(AtomicFileError) {
        let doc = JSONValue.object([
            ("generation", .number(Double(contents.generation))),
            ("revoked", .object(contents.revoked.sorted { $0.key < $1.key }.map { ($0.key, .number($0.value.rounded())) })),
        ])
        try AtomicFile.replace(path, with: Array((doc.serialized + "\n").utf8), mode: 0o600)
    }
}
