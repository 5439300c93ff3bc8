// SPDX-License-Identifier: MIT
#if canImport(Glibc)
    import Glibc
#endif

/// Appends to a log file (`O_APPEND`, created 0640): parked messages.
enum AppendFile {
    static func append(_ bytes: [UInt8], to path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o640)
        guard fd >= 0 else { return }
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }
}
