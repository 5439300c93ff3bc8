// SPDX-License-Identifier: MIT
#if canImport(Glibc)
    import Glibc
#endif

enum Environment {
    static func value(_ name: String) -> String? {
        guard let p = getenv(name) else { return nil }
        let s = String(cString: p)
        return s.isEmpty ? nil : s
    }
}
