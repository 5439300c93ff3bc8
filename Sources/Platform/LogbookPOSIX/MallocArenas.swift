// SPDX-License-Identifier: MIT
internal import CLogbookPOSIX

/// glibc's malloc arenas. By default each thread that allocates may get an arena of its own
/// (up to eight per core), and each arena keeps pages of its own: the daemon's dozen threads
/// (GPS reader, journal, live state, control socket, OBD adapter, the concurrency pool…) held
/// about 2.1 MiB of anonymous memory at the end of the Swiss drive, 1.75 MiB in two arenas. It
/// allocates little and seldom, so the lock the threads then share costs nothing measurable.
public enum MallocArenas {
    /// At most `count` arenas (`mallopt(M_ARENA_MAX)`); before threads start, so that all of
    /// them share. False when the C library refuses it.
    @discardableResult
    public static func limit(to count: Int32) -> Bool {
        clp_limit_malloc_arenas(count) == 1
    }
}
