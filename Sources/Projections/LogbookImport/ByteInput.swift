// SPDX-License-Identifier: MIT
public import LogbookCore
#if canImport(Glibc)
    import Glibc
#endif

/// A file read front to back in 256 KiB chunks: the parsers pull bytes one at a time from a
/// buffer that never grows, so memory stays flat whatever the file's size. Every byte read
/// also goes into the SHA-256 of the file's content (the import's identity), and the count
/// of bytes read drives the progress bar. Tests feed bytes from memory the same way.
public struct ByteInput {
    private let fd: Int32
    private var buffer: [UInt8]
    private var index = 0
    private var count = 0
    private var memory: [UInt8]?
    private var finished = false
    /// The file's content hash so far (complete once the end was reached).
    public private(set) var digest = SHA256Digest()
    /// Bytes read from the file so far.
    public private(set) var bytesRead: Int64 = 0
    /// The current line (1-based), counted as bytes are taken.
    public private(set) var line = 1

    static let chunk = 256 << 10

    /// Opens `path` for reading.
    public init(path: String) throws(ImportIssue) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ImportIssue(line: nil, "cannot open: \(String(cString: strerror(errno)))") }
        self.fd = fd
        buffer = [UInt8](repeating: 0, count: Self.chunk)
    }

    /// Reads `bytes` as if they were a file (tests, sniffing).
    public init(bytes: [UInt8]) {
        fd = -1
        buffer = []
        memory = bytes
    }

    /// Closes the file (the parsers call it at the end; harmless twice).
    public mutating func close() {
        if fd >= 0, !finished { Glibc.close(fd) }
        finished = true
    }

    /// The next byte, or nil at the end of the file.
    @inline(__always)
    public mutating func next() throws(ImportIssue) -> UInt8? {
        if index == count {
            guard try refill() else { return nil }
        }
        let b = buffer[index]
        index += 1
        if b == 10 { line += 1 }
        return b
    }

    /// The next byte without taking it.
    @inline(__always)
    public mutating func peek() throws(ImportIssue) -> UInt8? {
        if index == count {
            guard try refill() else { return nil }
        }
        return buffer[index]
    }

    private mutating func refill() throws(ImportIssue) -> Bool {
        if let m = memory {
            memory = nil
            buffer = m
            count = m.count
            index = 0
            digest.update(m)
            bytesRead += Int64(m.count)
            return count > 0
        }
        guard fd >= 0, !finished else { return false }
        var n: Int
        repeat {
            n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, Self.chunk) }
        } while n < 0 && errno == EINTR
        guard n >= 0 else { throw ImportIssue(line: line, "read error: \(String(cString: strerror(errno)))") }
        guard n > 0 else {
            close()
            return false
        }
        index = 0
        count = n
        buffer.withUnsafeBytes { digest.update(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        bytesRead += Int64(n)
        return true
    }

    /// Reads the rest of the file (so the hash covers it all) and returns the SHA-256 as hex.
    public mutating func finishHash() throws(ImportIssue) -> String {
        index = count
        while try refill() { index = count }
        return SHA256Digest.hexString(digest.finalize())
    }
}

/// Something wrong with a file: where (a line, and the element or item when known) and what.
public struct ImportIssue: Error, Sendable, Hashable, CustomStringConvertible {
    /// 1-based line, when known.
    public var line: Int?
    /// What is wrong, for a person (`trkpt without <time>`).
    public var message: String

    /// Creates an issue.
    public init(line: Int?, _ message: String) {
        self.line = line
        self.message = message
    }

    /// `LINE: message`, or the message alone.
    public var description: String { line.map { "\($0): \(message)" } ?? message }
}
