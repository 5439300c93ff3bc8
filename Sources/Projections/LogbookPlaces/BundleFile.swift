// SPDX-License-Identifier: MIT
internal import LogbookPOSIX
internal import LogbookSodium

#if canImport(Glibc)
    internal import Glibc
#endif

/// The few file operations loading a bundle needs.
enum BundleFile {
    /// A small text file (at most `limit` bytes are read).
    static func read(_ path: String, limit: Int) throws(PlaceBundleError) -> String {
        let found: [UInt8]?
        do {
            found = try FileContents.read(path, limit: limit)
        } catch {
            throw .unreadable("cannot read \(path): \(error.reason)")
        }
        guard let bytes = found else { throw .unreadable("cannot read \(path): \(SystemError.text(ENOENT))") }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .unreadable("cannot read \(path): not UTF-8 text") }
        return text
    }

    /// The SHA-256 of an open file, read in 1 MiB pieces through one buffer.
    static func sha256(fd: Int32, path: String) throws(PlaceBundleError) -> String {
        var digest = SHA256Hasher()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset: off_t = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .unreadable("cannot read \(path): \(lastError())")
            }
            if n == 0 { break }
            buffer.withUnsafeBytes { digest.update(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            offset += off_t(n)
        }
        return Hex.encode(digest.finalize())
    }

    static func lastError() -> String { SystemError.text(errno) }
}
