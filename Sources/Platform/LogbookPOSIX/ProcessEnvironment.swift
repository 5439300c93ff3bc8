// SPDX-License-Identifier: MIT
#if canImport(Glibc)
    internal import Glibc
#endif

/// The process environment as a dictionary, read from `environ` (no Foundation in the programs
/// that run for days: logbookd, logbook-uplink, logbook-web).
public enum ProcessEnvironment {
    public static func current() -> [String: String] {
        var env: [String: String] = [:]
        var p = environ
        while let entry = p.pointee {
            let s = String(cString: entry)
            if let eq = s.firstIndex(of: "=") { env[String(s[..<eq])] = String(s[s.index(after: eq)...]) }
            p += 1
        }
        return env
    }
}
