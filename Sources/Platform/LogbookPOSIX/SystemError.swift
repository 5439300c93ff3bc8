// SPDX-License-Identifier: MIT
#if canImport(Glibc)
    import Glibc
#endif

/// A failed system call: what was tried, on what, and the `errno` it left.
///
/// The one place that turns an `errno` into words (`strerror`), so every message about a
/// failed call reads the same: `open /var/lib/logbook/journal/LOCK: Permission denied (errno 13)`.
public struct SystemError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The call or step, e.g. `open`, `fdatasync`, `rename`.
    public var operation: String
    /// The file or socket path it was about, if any.
    public var path: String?
    /// The `errno` value (positive).
    public var code: Int32

    /// - Parameters:
    ///   - operation: the call or step that failed.
    ///   - path: what it was about, if a path.
    ///   - code: the `errno` value; a negated one (libsystemd's style) is accepted.
    public init(_ operation: String, path: String? = nil, code: Int32) {
        self.operation = operation
        self.path = path
        self.code = abs(code)
    }

    /// The error for the calling thread's current `errno`.
    public static func current(_ operation: String, path: String? = nil) -> SystemError {
        SystemError(operation, path: path, code: errno)
    }

    /// `strerror` of the code, e.g. `No space left on device`.
    public var reason: String { Self.text(code) }

    public var description: String {
        "\(operation)\(path.map { " \($0)" } ?? ""): \(reason) (errno \(code))"
    }

    /// `strerror(code)` for a positive or negated errno.
    public static func text(_ code: Int32) -> String {
        String(cString: strerror(abs(code)))
    }
}
