// SPDX-License-Identifier: MIT
#if canImport(Glibc)
    internal import Glibc
#endif

/// Process-wide set-up for `logbookd`: signals and the environment.
public enum ProcessSignals {
    /// Blocks SIGTERM, SIGINT, SIGHUP and SIGUSR1 in the calling (main) thread before any
    /// other thread starts, and ignores SIGPIPE (libgps writes to a socket gpsd may have closed).
    public static func prepareDaemon() {
        var set = sigset_t()
        sigemptyset(&set)
        for s in [SIGTERM, SIGINT, SIGHUP, SIGUSR1] { sigaddset(&set, s) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        signal(SIGPIPE, SIG_IGN)
    }

    /// The process environment as a dictionary (no Foundation in the daemon).
    public static func environment() -> [String: String] {
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
