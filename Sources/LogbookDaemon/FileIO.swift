// SPDX-License-Identifier: MIT
#if canImport(Glibc)
    internal import Glibc
#endif

/// Reads a config file; nil when it does not exist and is not required.
func readConfigFile(_ path: String, required: Bool) throws(ConfigError) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
        let e = errno
        if e == ENOENT { return nil }
        throw ConfigError(key: nil, file: path, problem: "cannot read: \(String(cString: strerror(e)))")
    }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16_384)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 {
            if errno == EINTR { continue }
            throw ConfigError(key: nil, file: path, problem: "cannot read: \(String(cString: strerror(errno)))")
        }
        if n == 0 { break }
        bytes.append(contentsOf: chunk[0..<n])
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
        throw ConfigError(key: nil, file: path, problem: "not valid UTF-8")
    }
    return text
}

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
