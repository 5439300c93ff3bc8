// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookGarage
import LogbookRecords

/// Text output shared by the garage commands.
enum GarageText {
    /// Left-aligned columns, two spaces apart.
    static func table(_ rows: [[String]]) -> String {
        var widths: [Int] = []
        for row in rows {
            for (i, cell) in row.enumerated() {
                if i >= widths.count { widths.append(0) }
                widths[i] = max(widths[i], cell.count)
            }
        }
        return rows.map { row in
            row.enumerated().map { i, cell in i == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[i] - cell.count) }
                .joined(separator: "  ")
        }.joined(separator: "\n")
    }

    static func value(_ v: JSONValue) -> String {
        switch v {
        case .string(let s): s
        case .number(let n): n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
        default: v.serialized
        }
    }

    static func money(_ amounts: [String: Double]) -> String {
        amounts.isEmpty ? "-" : amounts.keys.sorted().map { "\(NumberText.fixed(amounts[$0] ?? 0, places: 2)) \($0)" }.joined(separator: ", ")
    }

    /// `--history`: every entry with its time, origin and fields.
    static func printHistory(_ history: [RecordedEntry]) {
        print("  history:")
        for h in history {
            let when = h.recordedAt.map(TripFormat.dateTimeWithZone) ?? "?"
            print("    seq \(h.sequence)  \(when)  \(h.entry.action.rawValue) by \(h.entry.origin)  \(h.entry.fields.serialized)")
        }
    }
}
