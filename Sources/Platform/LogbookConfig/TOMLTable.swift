// SPDX-License-Identifier: MIT

/// The document being built by ``TOMLParser``, with TOML's rules on redefinition: a key is set
/// once, a `[table]` is defined once, `[[array]]` appends, inline tables and arrays are closed.
final class TOMLTable {
    /// Why a key or header cannot be placed.
    struct Conflict: Error {
        var text: String
    }

    private enum Entry {
        case value(ConfigValue)
        case table(TOMLTable)
        /// `[[array]]`: held by reference so an append is in place (an array in the enum was
        /// copied for every element: 100,000 `[[privacy_zone]]` tables took minutes).
        case tables(TableArray)
    }

    private var entries: [String: Entry] = [:]
    /// Defined by its own `[header]` (a second one is an error).
    private var defined = false

    var value: ConfigValue {
        var out: [String: ConfigValue] = [:]
        for (key, entry) in entries {
            switch entry {
            case .value(let v): out[key] = v
            case .table(let t): out[key] = t.value
            case .tables(let ts): out[key] = .array(ts.items.map(\.value))
            }
        }
        return .table(out)
    }

    /// Sets `path` (relative to this table) to `value`; dotted keys create tables on the way.
    func insert(_ value: ConfigValue, at path: [String]) throws(Conflict) {
        guard let last = path.last else { throw Conflict(text: "empty key") }
        let table = try descend(path.dropLast(), whole: path)
        guard table.entries[last] == nil else { throw Conflict(text: "duplicate key '\(Self.dotted(path))'") }
        table.entries[last] = .value(value)
    }

    /// `[path]`.
    func defineTable(at path: [String]) throws(Conflict) {
        guard let last = path.last else { throw Conflict(text: "empty table name") }
        let parent = try descend(path.dropLast(), whole: path)
        switch parent.entries[last] {
        case nil:
            let t = TOMLTable()
            t.defined = true
            parent.entries[last] = .table(t)
        case .table(let t) where !t.defined:
            t.defined = true
        default:
            throw Conflict(text: "table [\(Self.dotted(path))] defined twice")
        }
    }

    /// `[[path]]`: a new table at the end of the array.
    func appendTable(at path: [String]) throws(Conflict) {
        guard let last = path.last else { throw Conflict(text: "empty table name") }
        let parent = try descend(path.dropLast(), whole: path)
        let t = TOMLTable()
        t.defined = true
        switch parent.entries[last] {
        case nil: parent.entries[last] = .tables(TableArray(t))
        case .tables(let ts): ts.items.append(t)
        default: throw Conflict(text: "[[\(Self.dotted(path))]] is not an array of tables")
        }
    }

    /// The table at `prefix`, creating missing ones; an array of tables means its last element.
    private func descend(_ prefix: ArraySlice<String>, whole: [String]) throws(Conflict) -> TOMLTable {
        var table = self
        for key in prefix {
            switch table.entries[key] {
            case nil:
                let t = TOMLTable()
                table.entries[key] = .table(t)
                table = t
            case .table(let t): table = t
            case .tables(let ts):
                guard let t = ts.items.last else { throw Conflict(text: "empty array of tables") }
                table = t
            case .value:
                throw Conflict(text: "'\(Self.dotted(whole))': '\(key)' is already a value, not a table")
            }
        }
        return table
    }

    private static func dotted(_ path: [String]) -> String { path.joined(separator: ".") }
}

/// The tables of one `[[array]]`, in file order.
final class TableArray {
    var items: [TOMLTable]
    init(_ first: TOMLTable) { items = [first] }
}
