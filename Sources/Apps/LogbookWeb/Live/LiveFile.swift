// SPDX-License-Identifier: MIT
internal import LogbookCore
#if canImport(Glibc)
    internal import Glibc
#endif

/// Reads `live.json`, which the daemon replaces atomically at least every 2 s.
package struct LiveFile: Sendable {
    package let path: String

    package init(path: String) { self.path = path }

    /// Why the file could not be used.
    package enum Problem: Error, CustomStringConvertible {
        case missing(String)
        case unreadable(String)

        package var description: String {
            switch self {
            case .missing(let s), .unreadable(let s): s
            }
        }
    }

    /// The document in the file.
    package func read(now: Double = WallClock.monotonic()) throws(Problem) -> LiveDocument {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw errno == ENOENT
                ? .missing("logbookd is not running: no live state at \(path)")
                : .unreadable("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 8192)
        while bytes.count < 1 << 20 {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            bytes += chunk[0..<n]
        }
        while let last = bytes.last, last == 10 || last == 13 || last == 32 { bytes.removeLast() }
        do {
            let json = try JSONValue.parse(bytes)
            return LiveDocument(text: String(decoding: bytes, as: UTF8.self), json: json, origin: .file, receivedAt: now)
        } catch {
            throw .unreadable("the live state at \(path) is unreadable: \(error)")
        }
    }
}
