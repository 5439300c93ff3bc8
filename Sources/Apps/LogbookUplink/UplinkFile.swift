// SPDX-License-Identifier: MIT
import LogbookPOSIX
#if canImport(Glibc)
    import Glibc
#endif

/// The uplink's small files: cursors and status files, written through ``AtomicFile`` (the
/// one writer of replaced files: temporary file, `fsync`, `rename`, `fsync` of the directory;
/// after a power cut a cursor is the old or the new version, never a mix — issue 11's
/// contract), and read back.
public enum UplinkFile {
    /// Replaces `path` with `bytes`, mode `mode` whatever the umask. `durable: false` skips
    /// the two fsyncs (status files on a tmpfs).
    public static func write(_ bytes: [UInt8], to path: String, mode: UInt32 = 0o644, durable: Bool = true) throws(UplinkError) {
        do {
            try AtomicFile.replace(path, with: bytes, mode: mode, durable: durable)
        } catch {
            throw .system(error.description)
        }
    }

    /// The file's bytes, nil when it does not exist.
    public static func read(_ path: String) throws(UplinkError) -> [UInt8]? {
        do {
            return try FileContents.read(path)
        } catch {
            throw .system(error.description)
        }
    }

    /// Creates `path` (and parents) when missing.
    public static func makeDirectory(_ path: String, mode: UInt32 = 0o755) throws(UplinkError) {
        do {
            try FileContents.makeDirectories(path, mode: mode)
        } catch {
            throw .system(error.description)
        }
    }

    /// Modification time of `path` in nanoseconds, nil when missing.
    public static func modificationTime(_ path: String) -> Int64? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
    }
}
