// SPDX-License-Identifier: MIT
import LogbookExport
#if canImport(Glibc)
    import Glibc
#endif

/// An export's bytes going to a file descriptor (stdout, or the temporary file of an
/// ``AtomicOutputFile``), written in full whatever `write(2)` returns in between.
final class FileDescriptorSink: ByteSink {
    let fd: Int32
    let name: String

    init(fd: Int32, name: String) {
        self.fd = fd
        self.name = name
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw CLIError.problem("cannot write \(name): \(String(cString: strerror(errno)))")
            }
            offset += n
        }
    }
}

/// A file that appears complete or not at all: written to a temporary file next to it,
/// flushed to disk, then renamed over the target (and the directory flushed), so a crash or a
/// full disk never leaves half an export under the final name.
final class AtomicOutputFile {
    let path: String
    let sink: FileDescriptorSink
    private let temporary: String
    private var done = false

    /// Creates the temporary file (mode 0666 less the umask, as the shell would).
    init(path: String) throws {
        self.path = path
        var template = Array("\(path).tmp-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
        guard fd >= 0 else { throw CLIError.problem("cannot create \(path): \(String(cString: strerror(errno)))") }
        temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let mask = umask(0)
        umask(mask)
        fchmod(fd, 0o666 & ~mask)
        sink = FileDescriptorSink(fd: fd, name: path)
    }

    /// Flushes the file to disk and gives it its name.
    func commit() throws {
        guard !done else { return }
        done = true
        defer { close(sink.fd) }
        guard fsync(sink.fd) == 0, rename(temporary, path) == 0 else {
            let why = String(cString: strerror(errno))
            unlink(temporary)
            throw CLIError.problem("cannot write \(path): \(why)")
        }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let dfd = open(directory, O_RDONLY | O_DIRECTORY)
        if dfd >= 0 {
            fsync(dfd)
            close(dfd)
        }
    }

    /// Removes the temporary file unless committed.
    func discard() {
        guard !done else { return }
        done = true
        close(sink.fd)
        unlink(temporary)
    }

    deinit { discard() }
}
