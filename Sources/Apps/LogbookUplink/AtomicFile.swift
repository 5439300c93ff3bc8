// SPDX-License-Identifier: MIT
#if canImport(Glibc)
    import Glibc
#endif

/// Small files replaced atomically: write a temporary file, `fsync` it, `rename` it over
/// the old one, `fsync` the directory. After a power cut the file is the old or the new
/// version, never a mix (the cursor contract of issue 11).
public enum AtomicFile {
    /// Replaces `path` with `bytes`. `durable: false` skips the two fsyncs (tmpfs status files).
    public static func write(_ bytes: [UInt8], to path: String, mode: UInt32 = 0o644, durable: Bool = true) throws(UplinkError) {
        let tmp = path + ".tmp"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode_t(mode))
        guard fd >= 0 else { throw failure("open", tmp) }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress.map { $0 + done }, $0.count - done) }
            if n < 0 {
                if errno == EINTR { continue }
                let e = failure("write", tmp)
                close(fd)
                throw e
            }
            done += n
        }
        if durable && fsync(fd) != 0 {
            let e = failure("fsync", tmp)
            close(fd)
            throw e
        }
        close(fd)
        guard rename(tmp, path) == 0 else { throw failure("rename", path) }
        if durable { try syncDirectory(of: path) }
    }

    /// The file's bytes, nil when it does not exist.
    public static func read(_ path: String) throws(UplinkError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw failure("open", path)
        }
        defer { close(fd) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 8192)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw failure("read", path)
            }
            if n == 0 { return out }
            out.append(contentsOf: chunk[0..<n])
        }
    }

    /// Creates `path` (and parents) when missing.
    public static func makeDirectory(_ path: String, mode: UInt32 = 0o755) throws(UplinkError) {
        var partial = ""
        for part in path.split(separator: "/") {
            partial += "/" + part
            if mkdir(partial, mode_t(mode)) != 0 && errno != EEXIST { throw failure("mkdir", partial) }
        }
    }

    /// Modification time of `path` in nanoseconds, nil when missing.
    public static func modificationTime(_ path: String) -> Int64? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
    }

    private static func syncDirectory(of path: String) throws(UplinkError) {
        let dir = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let fd = open(dir.isEmpty ? "." : dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("open", dir) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw failure("fsync", dir) }
    }

    static func failure(_ operation: String, _ path: String) -> UplinkError {
        .system("\(operation) \(path): \(String(cString: strerror(errno)))")
    }
}
