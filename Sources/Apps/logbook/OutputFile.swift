// SPDX-License-Identifier: MIT
import LogbookExport
import LogbookPOSIX
#if canImport(Glibc)
    // stdio's `stdout` is a C global Swift 6 calls unsafe; it is read once, at exit.
    @preconcurrency import Glibc
#endif

/// Where a command's document goes: a file given by `-o`, `--svg`, `--html` (written
/// through ``AtomicFile``: complete or not at all, never replacing anything but a regular
/// file), or standard output (`-`, or no option). Every write error is a ``CLIError``.
final class OutputFile: ByteSink {
    private let file: AtomicFile

    /// The mode of a file a command writes: 0644 less the umask (a restrictive umask
    /// narrows it; a permissive one never makes it writable by others).
    static var mode: UInt32 {
        let mask = umask(0)
        umask(mask)
        return 0o644 & ~UInt32(mask)
    }

    /// Opens `path` (`-` for standard output).
    init(path: String) throws {
        do {
            file = try AtomicFile(path: path, mode: Self.mode)
        } catch {
            throw CLIError.problem(error.description)
        }
    }

    /// Standard output.
    static func standardOutput() throws -> OutputFile { try OutputFile(path: AtomicFile.standardOutput) }

    /// True when this writes to standard output.
    var isStandardOutput: Bool { file.path == AtomicFile.standardOutput }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        do { try file.write(bytes) } catch { throw CLIError.problem(error.description) }
    }

    /// Writes `text` as UTF-8.
    func write(_ text: String) throws {
        try Array(text.utf8).withUnsafeBytes { try write($0) }
    }

    /// Gives the file its name (flushed to disk first).
    func commit() throws {
        do { try file.commit() } catch { throw CLIError.problem(error.description) }
    }

    /// Writes `text` to `path` (`-`: standard output) in one go.
    static func save(_ text: String, to path: String) throws {
        let out = try OutputFile(path: path)
        try out.write(text)
        try out.commit()
    }
}

/// Standard output as `print` fills it: its buffer is flushed and checked before the
/// process exits, so a full disk or a closed pipe is an error, not a silent exit 0.
enum StandardOutput {
    /// Flushes stdout; on failure writes one line to stderr and returns false.
    static func flush() -> Bool {
        let failed = fflush(stdout) != 0 || ferror(stdout) != 0
        guard failed else { return true }
        let reason = errno != 0 ? SystemError.text(errno) : "write error"
        let bytes = Array("logbook: cannot write stdout: \(reason)\n".utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
        return false
    }
}
