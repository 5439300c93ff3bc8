// SPDX-License-Identifier: MIT
#if canImport(Glibc)
    internal import Glibc
#endif
internal import LogbookPOSIX

/// Creates `path` and its parents (like `mkdir -p`); returns 0 or an errno.
func makeDirectories(_ path: String, mode: mode_t = 0o755) -> Int32 {
    var current = ""
    for part in path.split(separator: "/") {
        current += "/" + part
        if mkdir(current, mode) != 0, errno != EEXIST { return errno }
    }
    return 0
}

/// The text of an errno value.
func errnoText(_ code: Int32) -> String { SystemError.text(code) }
