// SPDX-License-Identifier: MIT
internal import CLogbookSystemd
#if canImport(Glibc)
    internal import Glibc
#endif

/// Whether the system clock can be trusted: synchronised to a time source (NTP).
public enum SystemClock {
    /// True when the kernel reports the clock synchronised (`adjtimex` not `TIME_ERROR`), or
    /// systemd-timesyncd has created `/run/systemd/timesync/synchronized`.
    public static var isSynchronised: Bool {
        if access("/run/systemd/timesync/synchronized", F_OK) == 0 { return true }
        return csd_clock_synchronised() == 1
    }
}
