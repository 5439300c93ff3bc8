// SPDX-License-Identifier: MIT
internal import CLogbookPOSIX

/// How wide the output may be: tables fit 80 columns unless the terminal is wider.
public enum TerminalWidth {
    /// The width a table may take: `COLUMNS` when it is a number (the shell's, or a person's
    /// choice), else the terminal on standard output (TIOCGWINSZ), else 80 (a pipe, a file).
    /// Never less than 40.
    public static func columns(environment columnsVariable: String?, fileDescriptor: Int32 = 1) -> Int {
        if let text = columnsVariable, let n = Int(text), n > 0 { return max(40, n) }
        let reported = Int(clp_terminal_columns(fileDescriptor))
        return reported > 0 ? max(40, reported) : 80
    }
}
