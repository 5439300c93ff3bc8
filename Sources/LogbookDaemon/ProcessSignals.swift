// SPDX-License-Identifier: MIT
#if canImport(Glibc)
    internal import Glibc
#endif

/// Process-wide signal set-up for `logbookd`.
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
}
