// SPDX-License-Identifier: MIT
internal import LogbookPOSIX
#if canImport(Glibc)
    import Glibc
#endif

/// The file operations the journal uses: a seam so crash tests can run the real writer and
/// recovery code on a simulated disk that drops, tears or garbles unsynced writes.
///
/// Handles are small integers (file descriptors for ``PosixFileSystem``).
protocol JournalFileSystem: AnyObject {
    /// Names (not paths) of the entries in `directory`.
    func list(_ directory: String) throws -> [String]
    /// Creates a new file (`O_CREAT|O_EXCL`) for reading and writing.
    func create(_ path: String) throws -> Int32
    /// Opens an existing file for reading and writing.
    func openForWriting(_ path: String) throws -> Int32
    /// Extends the file to `size` with zero-filled, allocated blocks (`fallocate`).
    func allocate(_ handle: Int32, size: Int) throws
    /// Writes all of `bytes` at `offset` (`pwrite`, never `O_APPEND`).
    func write(_ handle: Int32, _ bytes: [UInt8], at offset: Int) throws
    /// `fdatasync`.
    func sync(_ handle: Int32) throws
    /// `ftruncate`.
    func truncate(_ handle: Int32, size: Int) throws
    func close(_ handle: Int32)
    /// `fsync` of a directory, so entries created in it survive a power cut.
    func syncDirectory(_ path: String) throws
    /// The whole file, or nil when it does not exist.
    func read(_ path: String) throws -> [UInt8]?
    /// At most `count` bytes from `offset` (fewer at the end of the file), or nil when it
    /// does not exist.
    func read(_ path: String, from offset: Int, count: Int) throws -> [UInt8]?
    /// The file's size in bytes, or nil when it does not exist.
    func size(_ path: String) throws -> Int?
    func remove(_ path: String) throws
}

extension JournalFileSystem {
    /// The size of the whole file (file systems that keep files in memory).
    func size(_ path: String) throws -> Int? { try read(path)?.count }

    /// A part of the whole file (file systems that keep files in memory).
    func read(_ path: String, from offset: Int, count: Int) throws -> [UInt8]? {
        guard let all = try read(path) else { return nil }
        let start = min(max(0, offset), all.count)
        return Array(all[start..<(start + min(count, all.count - start))])
    }
}

/// An I/O error with the failing call, path and errno.
public struct JournalIOError: Error, CustomStringConvertible, Sendable, Hashable {
    /// The system call, e.g. `fdatasync`.
    public var operation: String
    /// The file or directory.
    public var path: String
    /// `errno`.
    public var code: Int32

    /// `fdatasync /var/lib/logbook/journal/00000001.seg: Input/output error (errno 5)`.
    public var description: String { SystemError(operation, path: path, code: code).description }

    /// The file system is full (`ENOSPC`) or the quota used up (`EDQUOT`): a state it can
    /// leave again, so the writer keeps records in memory and retries instead of failing.
    public var isDiskFull: Bool { code == ENOSPC || code == EDQUOT }

    /// Whether `error` is a disk-full ``JournalIOError``.
    static func isDiskFull(_ error: any Error) -> Bool { (error as? JournalIOError)?.isDiskFull ?? false }
}

/// The real file system (Glibc calls; retries on `EINTR`). Existing files are opened only if
/// they are regular files, never through a symlink (``JournalError/notRegularFile(path:kind:)``).
final class PosixFileSystem: JournalFileSystem, @unchecked Sendable {
    // Stateless apart from the fd → path map used in error messages (writer thread only).
    private var paths: [Int32: String] = [:]

    private func fail(_ op: String, _ path: String) -> JournalIOError { JournalIOError(operation: op, path: path, code: errno) }
    private func name(_ fd: Int32) -> String { paths[fd] ?? "fd \(fd)" }

    func list(_ directory: String) throws -> [String] {
        guard let dir = opendir(directory) else { throw fail("opendir", directory) }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let n = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if n != "." && n != ".." { names.append(n) }
        }
        return names
    }

    func create(_ path: String) throws -> Int32 {
        let fd = Glibc.open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw fail("open", path) }
        paths[fd] = path
        return fd
    }

    func openForWriting(_ path: String) throws -> Int32 {
        let fd = try openRegular(path, O_RDWR)
        paths[fd] = path
        return fd
    }

    /// Opens an existing journal file without following a symlink or blocking on a FIFO, and
    /// only if it is a regular file (`O_NOFOLLOW | O_NONBLOCK`, then `fstat`).
    private func openRegular(_ path: String, _ access: Int32) throws -> Int32 {
        let fd = Glibc.open(path, access | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let e = fail("open", path)
            var st = stat()
            if e.code == ELOOP || e.code == ENXIO, lstat(path, &st) == 0, st.st_mode & S_IFMT != S_IFREG {
                throw JournalError.notRegularFile(path: path, kind: FileKind(mode: UInt32(st.st_mode)))
            }
            throw e
        }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let e = fail("fstat", path)
            _ = Glibc.close(fd)
            throw e
        }
        guard st.st_mode & S_IFMT == S_IFREG else {
            _ = Glibc.close(fd)
            throw JournalError.notRegularFile(path: path, kind: FileKind(mode: UInt32(st.st_mode)))
        }
        return fd
    }

    func allocate(_ handle: Int32, size: Int) throws {
        // Allocating up front keeps later writes from changing the file size, so fdatasync needs
        // no metadata journal commit (docs/journal.md, "Writing"). glibc's posix_fallocate is
        // fallocate(fd, 0, …) where the file system supports it (the Glibc module hides
        // fallocate itself behind _GNU_SOURCE).
        let rc = posix_fallocate(handle, 0, off_t(size))
        if rc != 0 { throw JournalIOError(operation: "fallocate", path: name(handle), code: rc) }
    }

    func write(_ handle: Int32, _ bytes: [UInt8], at offset: Int) throws {
        var done = 0
        try bytes.withUnsafeBytes { buf in
            while done < buf.count {
                let n = pwrite(handle, buf.baseAddress.map { $0 + done }, buf.count - done, off_t(offset + done))
                if n < 0 {
                    if errno == EINTR { continue }
                    throw fail("pwrite", name(handle))
                }
                done += n
            }
        }
    }

    func sync(_ handle: Int32) throws {
        guard fdatasync(handle) == 0 else { throw fail("fdatasync", name(handle)) }
    }

    func truncate(_ handle: Int32, size: Int) throws {
        guard ftruncate(handle, off_t(size)) == 0 else { throw fail("ftruncate", name(handle)) }
    }

    func close(_ handle: Int32) {
        paths[handle] = nil
        _ = Glibc.close(handle)
    }

    func syncDirectory(_ path: String) throws {
        let fd = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw fail("open", path) }
        defer { _ = Glibc.close(fd) }
        guard fsync(fd) == 0 else { throw fail("fsync", path) }
    }

    func read(_ path: String) throws -> [UInt8]? {
        try read(path, from: 0, count: Int.max)
    }

    /// `path` opened read-only, with its size, or nil when it does not exist. Only a regular
    /// file is opened, so a FIFO or a symlink in the journal is the same clear error for every
    /// reader (never a size of 0 that recovery would take for an empty segment).
    private func openForReading(_ path: String) throws -> (fd: Int32, size: Int)? {
        let fd: Int32
        do {
            fd = try openRegular(path, O_RDONLY)
        } catch let e as JournalIOError where e.code == ENOENT {
            return nil
        }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let e = fail("fstat", path)
            _ = Glibc.close(fd)
            throw e
        }
        return (fd, Int(st.st_size))
    }

    func size(_ path: String) throws -> Int? {
        guard let (fd, size) = try openForReading(path) else { return nil }
        _ = Glibc.close(fd)
        return size
    }

    func read(_ path: String, from offset: Int, count: Int) throws -> [UInt8]? {
        guard let (fd, fileSize) = try openForReading(path) else { return nil }
        defer { _ = Glibc.close(fd) }
        let start = min(max(0, offset), fileSize)
        let size = min(count, fileSize - start)
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        try bytes.withUnsafeMutableBytes { buf in
            while done < size {
                let n = pread(fd, buf.baseAddress.map { $0 + done }, size - done, off_t(start + done))
                if n < 0 {
                    if errno == EINTR { continue }
                    throw fail("pread", path)
                }
                if n == 0 { break }
                done += n
            }
        }
        if done < size { bytes.removeLast(size - done) }
        return bytes
    }

    func remove(_ path: String) throws {
        guard unlink(path) == 0 || errno == ENOENT else { throw fail("unlink", path) }
    }
}
