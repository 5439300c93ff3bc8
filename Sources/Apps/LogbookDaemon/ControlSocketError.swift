// SPDX-License-Identifier: MIT

/// Why the control socket could not be set up, or stopped on its own.
package enum ControlSocketError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Unix socket paths are limited to 107 bytes.
    case pathTooLong(String)
    /// Another process (a second daemon?) is listening on the path.
    case inUse(String)
    /// Something that is not a socket is in the way; it is left alone.
    case notASocket(String)
    /// A system call failed: operation, path or fd, errno text.
    case system(String, String, String)
    /// The server thread ended without being asked to.
    case failed(String)

    package var description: String {
        switch self {
        case .pathTooLong(let path): "control socket path too long (max 107 bytes): \(path)"
        case .inUse(let path): "another process is listening on \(path)"
        case .notASocket(let path): "\(path) exists and is not a socket; not replacing it"
        case .system(let call, let target, let why): "control socket \(target): \(call) failed: \(why)"
        case .failed(let why): "control socket server stopped: \(why)"
        }
    }
}
