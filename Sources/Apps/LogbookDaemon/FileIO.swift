// SPDX-License-Identifier: MIT
#if canImport(Glibc)
    internal import Glibc
#endif
internal import LogbookPOSIX

/// Creates `path` and its parents (like `mkdir -p`); returns 0 or an errno.
func makeDirectories(_ path: String, mode: mode_t = 0o755) -> Int32 {
    do {
        try FileContents.makeDirectories(path, mode: UInt32(mode))
        return 0
    } catch {
        return error.code
    }
}

/// The text of an errno value.
func errnoText(_ code: Int32) -> String { SystemError.text(code) }
