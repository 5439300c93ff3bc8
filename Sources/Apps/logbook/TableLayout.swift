// SPDX-License-Identifier: MIT

/// Which columns of a text table are shown, and how wide, so that every line fits the
/// terminal: optional columns appear only when they fit, and one flexible column (e.g. the
/// route) is cut with "…" to what is left.
struct TableLayout {
    /// The columns shown, in table order.
    let shown: [Int]
    /// The width of every column (of all of them; only `shown` ones are used).
    let widths: [Int]
    let flexible: Int
    let numeric: Set<Int>
    static let separator = "  "

    /// - Parameters:
    ///   - natural: each column's widest cell (header included).
    ///   - optional: columns that may be left out, the most wanted first.
    ///   - flexible: the column cut to fit, never narrower than `minimumFlexible`.
    init(natural: [Int], optional: [Int], flexible: Int, numeric: Set<Int>, available: Int, minimumFlexible: Int = 12) {
        var included = Set(natural.indices).subtracting(optional)
        func width(_ columns: Set<Int>, flexibleWidth: Int) -> Int {
            columns.reduce(0) { $0 + ($1 == flexible ? flexibleWidth : natural[$1]) } + Self.separator.count * max(0, columns.count - 1)
        }
        let least = min(natural[flexible], minimumFlexible)
        for column in optional where width(included.union([column]), flexibleWidth: natural[flexible]) <= available {
            included.insert(column)
        }
        var widths = natural
        let spare = available - width(included, flexibleWidth: 0)
        widths[flexible] = max(least, min(natural[flexible], spare))
        self.widths = widths
        shown = included.sorted()
        self.flexible = flexible
        self.numeric = numeric
    }

    /// One line: the shown cells padded to their widths, the flexible one cut with "…".
    func line(_ cells: [String]) -> String {
        shown.map { i in
            var cell = cells[i]
            if i == flexible, cell.count > widths[i] { cell = String(cell.prefix(max(0, widths[i] - 1))) + "…" }
            return i == shown.last ? cell : pad(cell, widths[i], right: numeric.contains(i))
        }.joined(separator: Self.separator)
    }
}
