// SPDX-License-Identifier: MIT
#if canImport(Glibc)
    import Glibc
#endif

/// Reading a whole small file and creating directories: the two file chores every process has
/// (config, keys, cursors, bundles), written once, with the one wording of their errors.
public enum FileContents {
    /// The bytes of `path`, nil when it does not exist; at most `limit` bytes are read.
    ///
    /// - Throws: ``SystemError`` (`open` or `read`) for any other failure.
    public static func read(_ path: String, limit: Int = .max) throws(SystemError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw .current("open", path: path)
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while bytes.count < limit {
            let want = min(chunk.count, limit - bytes.count)
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, want) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .current("read", path: path)
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return bytes
    }

    /// Creates `path` and its missing parents (like `mkdir -p`); `mode` for those it creates.
    ///
    /// - Throws: ``SystemError`` (`mkdir`) naming the directory that could not be made.
    public static func makeDirectories(_ path: String, mode: UInt32 = 0o755) throws(SystemError) {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            current += "/" + part
            if mkdir(current, mode_t(mode)) != 0, errno != EEXIST { throw .current("mkdir", path: current) }
        }
    }
}
