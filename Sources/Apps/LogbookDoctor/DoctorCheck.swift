// SPDX-License-Identifier: MIT

/// One check of `logbook doctor` (and the web app's Setup check page): what was checked, what
/// was found, and what to do about it.
public struct DoctorCheck: Sendable {
    public var name: String
    public var ok: Bool
    /// What was found.
    public var detail: String
    /// What to do when it failed.
    public var fix: String?

    public init(name: String, ok: Bool, detail: String, fix: String? = nil) {
        self.name = name
        self.ok = ok
        self.detail = detail
        self.fix = fix
    }

    public static func pass(_ name: String, _ detail: String) -> DoctorCheck { DoctorCheck(name: name, ok: true, detail: detail) }
    public static func fail(_ name: String, _ detail: String, fix: String) -> DoctorCheck {
        DoctorCheck(name: name, ok: false, detail: detail, fix: fix)
    }

    /// `ok    gpsd         reachable at …` and, when it failed, an indented `fix:` line.
    public var text: String {
        let padded = name.count >= 12 ? name : name + String(repeating: " ", count: 12 - name.count)
        var s = (ok ? "ok    " : "FAIL  ") + padded + " " + detail
        if !ok, let fix { s += "\n      fix: " + fix }
        return s
    }
}
