// SPDX-License-Identifier: MIT
#if canImport(Glibc)
    import Glibc
#endif

/// `flock(LOCK_EX|LOCK_NB)` on `<journal>/LOCK`, which also holds the owner's pid.
struct WriterLock: Sendable {
    let fd: Int32

    static func acquire(directory: String) throws -> WriterLock {
        let path = directory + "/LOCK"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw JournalError.io(JournalIOError(operation: "open", path: path, code: errno)) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let e = errno
            var buf = [UInt8](repeating: 0, count: 32)
            let n = buf.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 31, 0) }
            close(fd)
            if e == EWOULDBLOCK {
                let text = n > 0 ? String(decoding: buf[0..<n], as: UTF8.self) : ""
                throw JournalError.locked(directory: directory, pid: Int32(text.filter(\.isNumber)))
            }
            throw JournalError.io(JournalIOError(operation: "flock", path: path, code: e))
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        return WriterLock(fd: fd)
    }

    func release() {
        _ = flock(fd, LOCK_UN)
        close(fd)
    }
}
