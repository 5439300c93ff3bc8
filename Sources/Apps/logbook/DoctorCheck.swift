// SPDX-License-Identifier: MIT

/// One line of `logbook doctor`: what was checked, what was found, and what to do about it.
struct DoctorCheck {
    var name: String
    var ok: Bool
    /// What was found.
    var detail: String
    /// What to do when it failed.
    var fix: String?

    static func pass(_ name: String, _ detail: String) -> DoctorCheck { DoctorCheck(name: name, ok: true, detail: detail) }
    static func fail(_ name: String, _ detail: String, fix: String) -> DoctorCheck {
        DoctorCheck(name: name, ok: false, detail: detail, fix: fix)
    }

    /// `ok    gpsd         reachable at …` and, when it failed, an indented `fix:` line.
    var text: String {
        var s = (ok ? "ok    " : "FAIL  ") + pad(name, 12) + " " + detail
        if !ok, let fix { s += "\n      fix: " + fix }
        return s
    }
}
