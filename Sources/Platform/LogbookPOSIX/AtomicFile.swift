// SPDX-License-Identifier: MIT
#if canImport(Glibc)
    internal import Glibc
#endif

/// The one writer of output files: a file that appears complete or not at all, or stdout.
///
/// A file is written to a new temporary file in the same directory (created with `O_EXCL`,
/// given `mode` exactly, whatever the umask), flushed (`fsync`), renamed over the target,
/// and the directory flushed, so a crash or a full disk never leaves half a file under the
/// final name. Only a regular file or a new name is ever replaced: a symlink (never
/// followed), a FIFO, a device, a socket or a directory at the path is refused before
/// anything is written. The path `-` means standard output, written in place.
///
/// Every failure, of a write to stdout too, is thrown: callers turn it into one line and a
/// non-zero exit.
public final class AtomicFile {
    /// The path as given (`-` for standard output).
    public let path: String
    private let fd: Int32
    /// The temporary file; nil when writing to standard output.
    private let temporary: String?
    private var finished = false

    /// The path that means standard output.
    public static let standardOutput = "-"

    /// Opens `path` for writing.
    ///
    /// - Parameters:
    ///   - path: the file to replace or create, or `-` for standard output.
    ///   - mode: the new file's permission bits, applied exactly (umask ignored).
    /// - Throws: ``AtomicFileError/notRegularFile(path:kind:)`` when something other than a
    ///   regular file is at `path`; ``AtomicFileError/system(_:)`` when the temporary file
    ///   cannot be created.
    public init(path: String, mode: UInt32) throws(AtomicFileError) {
        self.path = path
        if path == Self.standardOutput {
            fd = STDOUT_FILENO
            temporary = nil
            return
        }
        try Self.checkTarget(path)
        let (directory, name) = Self.split(path)
        var template = Array("\(directory)/.\(name).tmp-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            buffer.baseAddress.map { mkstemp($0) } ?? -1
        }
        guard fd >= 0 else { throw .system(.current("create", path: path)) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard fchmod(fd, mode_t(mode & 0o7777)) == 0 else {
            let error = SystemError.current("chmod", path: temporary)
            close(fd)
            unlink(temporary)
            throw .system(error)
        }
        self.fd = fd
        self.temporary = temporary
    }

    /// Writes all of `bytes` (retrying short writes and `EINTR`).
    public func write(_ bytes: UnsafeRawBufferPointer) throws(AtomicFileError) {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw .system(.current("write", path: displayName))
            }
            offset += n
        }
    }

    /// Writes all of `bytes`.
    public func write(_ bytes: [UInt8]) throws(AtomicFileError) {
        let failure = bytes.withUnsafeBytes { buffer -> AtomicFileError? in
            do throws(AtomicFileError) {
                try write(buffer)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// Gives the file its name: `fsync`, `rename`, `fsync` of the directory (`durable: false`
    /// skips both flushes, for status files on a tmpfs). For standard output: nothing to do
    /// (every write has been checked).
    public func commit(durable: Bool = true) throws(AtomicFileError) {
        guard !finished else { return }
        finished = true
        guard let temporary else { return }
        defer { close(fd) }
        if durable, fsync(fd) != 0 {
            let error = SystemError.current("fsync", path: path)
            unlink(temporary)
            throw .system(error)
        }
        // The target may have been swapped for something else since `init` checked it.
        do { try Self.checkTarget(path) } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let error = SystemError.current("rename", path: path)
            unlink(temporary)
            throw .system(error)
        }
        if durable { try Self.syncDirectory(Self.split(path).directory) }
    }

    /// Removes the temporary file unless committed (a no-op for standard output).
    public func discard() {
        guard !finished else { return }
        finished = true
        guard let temporary else { return }
        close(fd)
        unlink(temporary)
    }

    deinit { discard() }

    /// Replaces `path` with `bytes` in one call.
    public static func replace(_ path: String, with bytes: [UInt8], mode: UInt32, durable: Bool = true) throws(AtomicFileError) {
        let file = try AtomicFile(path: path, mode: mode)
        do {
            try file.write(bytes)
            try file.commit(durable: durable)
        } catch {
            file.discard()
            throw error
        }
    }

    /// Refuses anything at `path` but a regular file (a symlink is not followed: refused).
    public static func checkTarget(_ path: String) throws(AtomicFileError) {
        var st = stat()
        guard lstat(path, &st) == 0 else {
            if errno == ENOENT { return }
            throw .system(.current("lstat", path: path))
        }
        let type = st.st_mode & S_IFMT
        guard type == S_IFREG else { throw .notRegularFile(path: path, kind: FileKind(mode: UInt32(type))) }
    }

    /// `fsync` of a directory, so a rename in it survives a power cut.
    static func syncDirectory(_ directory: String) throws(AtomicFileError) {
        let dfd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dfd >= 0 else { throw .system(.current("open", path: directory)) }
        defer { close(dfd) }
        guard fsync(dfd) == 0 else { throw .system(.current("fsync", path: directory)) }
    }

    /// The directory and the last component of `path`.
    static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = slash == path.startIndex ? "/" : String(path[..<slash])
        return (directory, String(path[path.index(after: slash)...]))
    }

    private var displayName: String { temporary == nil ? "stdout" : path }
}
