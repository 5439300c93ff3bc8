// SPDX-License-Identifier: MIT
package import LogbookConfig
#if canImport(Glibc)
    internal import Glibc
#endif

/// Reads the web password from its own file, so the secret never sits in the
/// world-readable TOML file.
package enum PasswordFile {
    /// Passwords shorter than this are refused: the app may face a whole LAN.
    package static let minimumLength = 8

    package static func exists(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0
    }

    /// The password in `path`: its first line, without the line end.
    ///
    /// - Parameter checkMode: refuse a file that everyone may read (`chmod o-r`).
    /// - Throws: ``ConfigError`` naming `key`.
    package static func read(_ path: String, key: String, file: String?, checkMode: Bool) throws(ConfigError) -> String {
        guard path.hasPrefix("/") else { throw ConfigError(key: key, file: file, problem: "must be an absolute path, got \"\(path)\"") }
        var st = stat()
        guard stat(path, &st) == 0 else {
            throw ConfigError(key: key, file: file, problem: "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        if checkMode, st.st_mode & S_IROTH != 0 {
            throw ConfigError(key: key, file: file, problem: "\(path) is readable by everyone; chmod o-rwx it (0640 root:logbook-web)")
        }
        let text: String?
        do {
            text = try ConfigFile.read(path)
        } catch {
            throw ConfigError(key: key, file: file, problem: error.problem)
        }
        let line = text?.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let password = line.hasSuffix("\r") ? String(line.dropLast()) : line
        guard password.count >= minimumLength else {
            throw ConfigError(
                key: key, file: file,
                problem: password.isEmpty ? "\(path) is empty" : "the password in \(path) is shorter than \(minimumLength) characters")
        }
        return password
    }
}
