// SPDX-License-Identifier: MIT
#if canImport(Glibc)
    internal import Glibc
#endif

/// Replaces `path` atomically with `bytes`: write a temp file beside it, then rename.
///
/// Readers never see a half-written file. No fsync: the runtime directory is a tmpfs and
/// the content is rebuilt within 2 s after a crash anyway.
func replaceFileAtomically(_ path: String, with bytes: [UInt8], mode: mode_t = 0o644) -> Int32 {
    let temp = path + ".tmp"
    let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
    guard fd >= 0 else { return errno }
    var offset = 0
    while offset < bytes.count {
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress?.advanced(by: offset), $0.count - offset) }
        if n < 0 {
            if errno == EINTR { continue }
            let e = errno
            close(fd)
            unlink(temp)
            return e
        }
        offset += n
    }
    fchmod(fd, mode)
    close(fd)
    return rename(temp, path) == 0 ? 0 : errno
}

/// Creates `path` and its parents (like `mkdir -p`); returns 0 or an errno.
func makeDirectories(_ path: String, mode: mode_t = 0o755) -> Int32 {
    var current = ""
    for part in path.split(separator: "/") {
        current += "/" + part
        if mkdir(current, mode) != 0, errno != EEXIST { return errno }
    }
    return 0
}

/// The text of an errno value.
func errnoText(_ code: Int32) -> String { String(cString: strerror(code)) }
