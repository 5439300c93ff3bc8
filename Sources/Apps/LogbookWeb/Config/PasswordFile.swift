// SPDX-License-Identifier: MIT
package import LogbookConfig
internal import LogbookPOSIX
#if canImport(Glibc)
    internal import Glibc
#endif

/// Reads the web password from its own file, so the secret never sits in the
/// world-readable TOML file.
package enum PasswordFile {
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
            throw ConfigError(key: key, file: file, problem: "cannot read \(path): \(SystemError.text(errno))")
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
        guard !password.isEmpty else { throw ConfigError(key: key, file: file, problem: "\(path) is empty") }
        // The app may face a whole LAN: a password the login limiter cannot protect for a
        // century is refused (PasswordStrength, docs/web.md, "Security").
        if let weak = PasswordStrength.problem(password) { throw ConfigError(key: key, file: file, problem: "\(weak) (in \(path))") }
        return password
    }
}
