// SPDX-License-Identifier: MIT
#if canImport(Glibc)
    internal import Glibc
#endif

/// The index file on disk: where it is created, with which owner and mode, and the checks made
/// before SQLite is allowed to open it.
///
/// The index is shared by root, the daemon's user and the members of group `logbook` (the
/// CLI and the web app run as any of them), and whoever opens it first may have to create it.
/// So: the directory is `2770 logbook:logbook` (setgid: files inherit the group), the database
/// is created here — not by SQLite — with mode 0660 whatever the umask, and when root creates
/// it, it is handed to the directory's owner. SQLite gives its `-wal` and `-shm` files the
/// database's mode and, when root creates them, its owner. Trips are a location history:
/// nothing is readable by others, as for the journal (`/var/lib/logbook` is 0750).
enum IndexFile {
    static let fileMode: mode_t = 0o660
    static let directoryMode: mode_t = 0o2770
    static let sqliteMagic = Array("SQLite format 3\0".utf8)

    /// What was found at the path.
    enum Found: Equatable {
        case created
        case existing
    }

    /// Creates the directory (if missing) and the file (if missing) with the shared modes.
    static func prepare(_ path: String) throws(TripIndexError) -> Found {
        let dir = directory(of: path)
        try makeDirectory(dir, for: path)
        var st = stat()
        guard stat(dir, &st) == 0 else { throw .unusable(path, "\(dir): \(errnoText())") }
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, fileMode)
        if fd < 0 {
            let e = errno
            if e == EEXIST { return .existing }
            throw .unusable(path, String(cString: strerror(e)))
        }
        defer { close(fd) }
        _ = fchmod(fd, fileMode)  // the umask must not narrow it
        if geteuid() == 0 {
            // Root creating it first must not lock out the daemon's user and the group.
            _ = fchown(fd, st.st_uid, st.st_gid)
        } else if st.st_mode & S_ISGID == 0 {
            _ = fchown(fd, uid_t.max, st.st_gid)  // a member hands it to the directory's group
        }
        return .created
    }

    /// Nil when the file is absent, empty or starts like a SQLite database; otherwise why not.
    static func foreignContent(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 100)
        let n = head.withUnsafeMutableBytes { read(fd, $0.baseAddress, 100) }
        if n <= 0 { return nil }
        if n < 100 { return "the file is \(n) bytes long, shorter than a SQLite header" }
        return Array(head[0..<16]) == sqliteMagic ? nil : "the file is not a SQLite database"
    }

    /// Removes the database and its SQLite companions, to build a new one in its place.
    static func discard(_ path: String) throws(TripIndexError) {
        for suffix in ["-wal", "-shm", "-journal", ""] {
            if unlink(path + suffix) != 0, errno != ENOENT {
                throw .unusable(path, "cannot remove \(path + suffix): \(errnoText())")
            }
        }
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let d = String(path[..<slash])
        return d.isEmpty ? "/" : d
    }

    /// Creates missing directories; the last one gets the shared mode (and, made by root,
    /// the `logbook` user and group when they exist).
    private static func makeDirectory(_ dir: String, for path: String) throws(TripIndexError) {
        var st = stat()
        if stat(dir, &st) == 0 { return }
        let parent = directory(of: dir)
        if parent != dir { try makeDirectory(parent, for: path) }
        let last = dir == directory(of: path)
        if mkdir(dir, last ? directoryMode : 0o755) != 0, errno != EEXIST {
            throw .unusable(path, "cannot create \(dir): \(errnoText())")
        }
        guard last else { return }
        _ = chmod(dir, directoryMode)
        if geteuid() == 0, let pw = getpwnam("logbook") {
            _ = chown(dir, pw.pointee.pw_uid, pw.pointee.pw_gid)
        }
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}
