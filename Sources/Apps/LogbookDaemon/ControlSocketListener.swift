// SPDX-License-Identifier: MIT
internal import Logging
#if canImport(Glibc)
    internal import Glibc
#endif

/// The listening socket of the control server: bound to a path, or passed by systemd.
struct ControlSocketListener: Sendable {
    /// Non-blocking, close-on-exec, listening.
    let fd: Int32
    /// The socket file to remove on exit; nil for a socket systemd owns.
    let ownedPath: String?

    /// Creates the socket file at `path` with `mode` and, if it exists, `group`.
    ///
    /// A stale socket file (nobody listening, e.g. after a crash) is replaced; a live one
    /// or a file that is not a socket is an error.
    static func bind(path: String, mode: UInt32, group: String?, logger: Logger) throws(ControlSocketError) -> ControlSocketListener {
        var address = sockaddr_un()
        guard fill(&address, path: path) else { throw .pathTooLong(path) }
        try removeStale(path, address: address)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .system("socket", path, errnoText(errno)) }
        if connectOrBind(fd, address, bind: true) != 0 {
            let e = errno
            Glibc.close(fd)
            throw .system("bind", path, errnoText(e))
        }
        // Nobody can connect before listen(), so the default mode between bind and chmod is harmless.
        if chmod(path, mode_t(mode)) != 0 {
            let e = errno
            Glibc.close(fd)
            unlink(path)
            throw .system("chmod", path, errnoText(e))
        }
        if let group { applyGroup(group, to: path, logger: logger) }
        if listen(fd, 16) != 0 {
            let e = errno
            Glibc.close(fd)
            unlink(path)
            throw .system("listen", path, errnoText(e))
        }
        return ControlSocketListener(fd: fd, ownedPath: path)
    }

    /// Takes over a listening socket passed by systemd socket activation (`sd_listen_fds`).
    static func adopt(_ fd: Int32) throws(ControlSocketError) -> ControlSocketListener {
        var listening: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &length) == 0 else {
            throw .system("getsockopt", "fd \(fd)", errnoText(errno))
        }
        guard listening != 0 else { throw .system("listen", "fd \(fd)", "not a listening socket") }
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else {
            throw .system("fcntl", "fd \(fd)", errnoText(errno))
        }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return ControlSocketListener(fd: fd, ownedPath: nil)
    }

    /// Closes the socket and removes the file we created.
    func close() {
        Glibc.close(fd)
        if let ownedPath { unlink(ownedPath) }
    }

    /// Copies `path` into `address`; false when it does not fit.
    static func fill(_ address: inout sockaddr_un, path: String) -> Bool {
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        return withUnsafeMutableBytes(of: &address.sun_path) { raw in
            guard !bytes.isEmpty, bytes.count < raw.count, !bytes.contains(0) else { return false }
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
            return true
        }
    }

    /// `connect(2)` or `bind(2)` to `address`; 0 or -1 with errno set.
    static func connectOrBind(_ fd: Int32, _ address: sockaddr_un, bind useBind: Bool) -> Int32 {
        var address = address
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                let size = socklen_t(MemoryLayout<sockaddr_un>.size)
                return useBind ? Glibc.bind(fd, pointer, size) : Glibc.connect(fd, pointer, size)
            }
        }
    }

    private static func removeStale(_ path: String, address: sockaddr_un) throws(ControlSocketError) {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return }
            throw .system("lstat", path, errnoText(errno))
        }
        guard info.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket(path) }
        // A non-blocking probe: refused means stale; connected or EAGAIN (backlog full) means live.
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { throw .system("socket", path, errnoText(errno)) }
        let rc = connectOrBind(probe, address, bind: false)
        let e = errno
        Glibc.close(probe)
        if rc == 0 || e == EAGAIN || e == EINPROGRESS { throw .inUse(path) }
        guard unlink(path) == 0 || errno == ENOENT else { throw .system("unlink", path, errnoText(errno)) }
    }

    /// Gives the socket file to `group`; a missing group or a refusal is logged, not fatal.
    private static func applyGroup(_ group: String, to path: String, logger: Logger) {
        guard let gid = groupID(group) else {
            logger.warning("control socket group does not exist; keeping the default group", metadata: ["group": "\(group)", "path": "\(path)"])
            return
        }
        if chown(path, uid_t.max, gid) != 0 {
            logger.warning("cannot give the control socket to its group", metadata: ["group": "\(group)", "path": "\(path)", "error": "\(errnoText(errno))"])
        }
    }

    /// The id of group `name` (`getgrnam_r`: the plain call is not thread-safe).
    static func groupID(_ name: String) -> gid_t? {
        var size = 1024
        while size <= 1 << 20 {
            var entry = Glibc.group()
            var result: UnsafeMutablePointer<Glibc.group>?
            var buffer = [CChar](repeating: 0, count: size)
            let rc = getgrnam_r(name, &entry, &buffer, buffer.count, &result)
            if rc == ERANGE {
                size *= 4
                continue
            }
            return rc == 0 && result != nil ? entry.gr_gid : nil
        }
        return nil
    }
}
