// SPDX-License-Identifier: MIT
#if canImport(Glibc)
    internal import Glibc
#endif

/// The programs of one installation find each other beside themselves: `/usr/bin` for the
/// package, the build directory for tests. (The daemon runs `logbook`, the CLI runs
/// `logbook-uplink`.)
public enum SiblingExecutable {
    /// `/proc/self/exe`'s directory + `name`, when that file is executable.
    public static func path(_ name: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        let exe = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = exe.lastIndex(of: "/") else { return nil }
        let path = String(exe[..<slash]) + "/" + name
        return access(path, X_OK) == 0 ? path : nil
    }
}
