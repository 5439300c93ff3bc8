// SPDX-License-Identifier: MIT
internal import LogbookCore

#if canImport(Glibc)
    internal import Glibc
#endif

/// The few file operations loading a bundle needs.
enum BundleFile {
    /// A small text file, or nil (see ``lastError()``).
    static func read(_ path: String, limit: Int) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: limit)
        var filled = 0
        while filled < limit {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, limit - filled) }  // safe: limit > 0
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            filled += n
        }
        return String(validating: bytes[0..<filled], as: UTF8.self)
    }

    /// The SHA-256 of an open file, read in 1 MiB pieces through one buffer.
    static func sha256(fd: Int32, path: String) throws(PlaceBundleError) -> String {
        var digest = SHA256Digest()
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
        return SHA256Digest.hexString(digest.finalize())
    }

    static func lastError() -> String { String(cString: strerror(errno)) }
}
