// SPDX-License-Identifier: MIT
#if canImport(Glibc)
    internal import Glibc
#endif

/// Why an ``AtomicFile`` was not written.
public enum AtomicFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Something other than a regular file is at the path: it is never replaced.
    case notRegularFile(path: String, kind: FileKind)
    /// A system call failed (a full disk, a missing directory, no permission…).
    case system(SystemError)

    public var description: String {
        switch self {
        case .notRegularFile(let path, let kind):
            "cannot write \(path): it is \(kind), not a regular file (refusing to replace it)"
        case .system(let error):
            "cannot write \(error.path ?? "file"): \(error.operation): \(error.reason)"
        }
    }
}

/// What kind of file system object is at a path (`lstat`'s `S_IFMT`).
public enum FileKind: String, Sendable, Hashable, CustomStringConvertible {
    case regular = "a regular file"
    case directory = "a directory"
    case symlink = "a symbolic link"
    case fifo = "a FIFO"
    case characterDevice = "a character device"
    case blockDevice = "a block device"
    case socket = "a socket"
    case unknown = "an unknown kind of file"

    /// The kind for a `st_mode` (only its `S_IFMT` bits count).
    public init(mode: UInt32) {
        switch mode_t(mode) & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFLNK: self = .symlink
        case S_IFIFO: self = .fifo
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        case S_IFSOCK: self = .socket
        default: self = .unknown
        }
    }

    public var description: String { rawValue }
}
