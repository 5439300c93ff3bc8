// SPDX-License-Identifier: MIT
#if canImport(Glibc)
    internal import Glibc
#endif

/// Process-wide set-up for `logbookd`: signals and the environment.
public enum ProcessSignals {
    /// The signals a hook must see with their default action again (dispositions set to
    /// SIG_IGN survive `exec`).
    public static let resetForChildren = [SIGPIPE, SIGHUP, SIGUSR1, SIGUSR2, SIGALRM, SIGTERM, SIGINT]

    /// Before any thread starts: blocks SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGUSR2 and SIGALRM
    /// (threads inherit the mask), ignores SIGPIPE (libgps writes to a socket gpsd may have
    /// closed), and ignores HUP, USR1, USR2 and ALRM until the daemon's signal service traps
    /// them: the mask alone does not keep a default action from killing the process if any
    /// thread runs unmasked (libdispatch's `dispatch_main()` waits in `sigsuspend` with every
    /// signal unblocked), and a SIGHUP while the journal is being recovered must not end it.
    public static func prepareDaemon() {
        var set = sigset_t()
        sigemptyset(&set)
        for s in [SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGUSR2, SIGALRM] { sigaddset(&set, s) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        for s in [SIGPIPE, SIGHUP, SIGUSR1, SIGUSR2, SIGALRM] { signal(s, SIG_IGN) }
    }

}
