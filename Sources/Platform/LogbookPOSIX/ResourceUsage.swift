// SPDX-License-Identifier: MIT
#if canImport(Glibc)
    internal import Glibc
#endif

/// The process's own resource use, from getrusage(2). Children are not in it, whereas a
/// parent's wait4(2) folds the reaped children's CPU and largest peak into what it gets (GNU
/// time's `%U %S %M`): the daemon's hooks and dashboard refresh run `logbook` (23 MiB).
public enum ResourceUsage {
    /// The peak resident set of this process alone, in KiB (`ru_maxrss`).
    public static var peakResidentKiB: Int { usage()?.ru_maxrss ?? 0 }

    /// CPU time of this process alone, user plus system, in seconds.
    public static var cpuSeconds: Double {
        guard let u = usage() else { return 0 }
        return Double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + Double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6
    }

    private static func usage() -> rusage? {
        var usage = rusage()
        return getrusage(RUSAGE_SELF.rawValue, &usage) == 0 ? usage : nil
    }
}
