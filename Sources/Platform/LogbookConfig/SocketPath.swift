// SPDX-License-Identifier: MIT

/// The length rule of a Unix socket path, checked where a configuration is loaded so that a
/// path the kernel cannot take is a config error at start, not a daemon without its socket.
package enum SocketPath {
    /// `sun_path` holds 108 bytes, the terminating NUL included.
    package static let maximumBytes = 107

    /// Refuses `path` when it is longer than ``maximumBytes``, naming `key` (the setting the
    /// path comes from: the socket's own key, or the directory the default lives in).
    package static func check(_ path: String, key: String, file: String?) throws(ConfigError) {
        let length = path.utf8.count
        guard length > maximumBytes else { return }
        throw ConfigError(
            key: key, file: file,
            problem: "the control socket path \(path) is \(length) bytes; a Unix socket path may have at most \(maximumBytes) bytes")
    }
}
