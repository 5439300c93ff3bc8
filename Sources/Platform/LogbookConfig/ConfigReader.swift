// SPDX-License-Identifier: MIT

/// Reads typed values out of a ``ConfigValue`` tree, with environment overrides, and
/// remembers which keys it read so that unknown (misspelt) keys can be reported.
package struct ConfigReader {
    private let root: [String: ConfigValue]
    private let file: String?
    package var fileName: String? { file }
    private let environment: [String: String]
    package private(set) var known: Set<String> = []

    package init(root: ConfigValue?, file: String?, environment: [String: String]) {
        if case .table(let t) = root { self.root = t } else { self.root = [:] }
        self.file = file
        self.environment = environment
    }

    /// `LOGBOOKD_` + the key path in upper case with `.` → `_` (`gpsd.address` → `LOGBOOKD_GPSD_ADDRESS`).
    package static func environmentName(_ key: String) -> String {
        // A plain map, not `replacing(_:with:)`: that one lives in _StringProcessing, whose
        // regex engine would otherwise be code the daemon runs at every start.
        "LOGBOOKD_" + String(key.uppercased().map { $0 == "." ? "_" : $0 })
    }

    private func lookup(_ key: String) -> ConfigValue? {
        var node: ConfigValue = .table(root)
        for part in key.split(separator: ".") {
            guard case .table(let t) = node, let next = t[String(part)] else { return nil }
            node = next
        }
        return node
    }

    /// Marks a key as known and returns its environment override or file value.
    private mutating func raw(_ key: String) -> (ConfigValue, String?, String)? {
        known.insert(key)
        let env = Self.environmentName(key)
        if let text = environment[env] { return (.string(text), nil, env) }
        return lookup(key).map { ($0, file, key) }
    }

    package mutating func string(_ key: String) throws(ConfigError) -> String? {
        guard let (value, source, name) = raw(key) else { return nil }
        guard case .string(let s) = value else { throw mismatch(name, source, "a string", value) }
        return s
    }

    package mutating func double(_ key: String, in range: ClosedRange<Double>) throws(ConfigError) -> Double? {
        guard let (value, source, name) = raw(key) else { return nil }
        let number: Double
        switch value {
        case .double(let d): number = d
        case .integer(let i): number = Double(i)
        case .string(let s) where source == nil:
            guard let d = Double(s) else { throw mismatch(name, source, "a number", value) }
            number = d
        default: throw mismatch(name, source, "a number", value)
        }
        guard number.isFinite, range.contains(number) else {
            throw ConfigError(key: name, file: source, problem: "\(number) is out of range \(range.lowerBound)…\(range.upperBound)")
        }
        return number
    }

    package mutating func integer(_ key: String, in range: ClosedRange<Int>) throws(ConfigError) -> Int? {
        guard let (value, source, name) = raw(key) else { return nil }
        let number: Int
        switch value {
        case .integer(let i): number = i
        case .string(let s) where source == nil:
            guard let i = Int(s) else { throw mismatch(name, source, "an integer", value) }
            number = i
        default: throw mismatch(name, source, "an integer", value)
        }
        guard range.contains(number) else {
            throw ConfigError(key: name, file: source, problem: "\(number) is out of range \(range.lowerBound)…\(range.upperBound)")
        }
        return number
    }

    package mutating func bool(_ key: String) throws(ConfigError) -> Bool? {
        guard let (value, source, name) = raw(key) else { return nil }
        switch value {
        case .bool(let b): return b
        case .string(let s) where source == nil:
            switch s.lowercased() {
            case "1", "true", "yes", "on": return true
            case "0", "false", "no", "off": return false
            default: throw mismatch(name, source, "a boolean", value)
            }
        default: throw mismatch(name, source, "a boolean", value)
        }
    }

    /// The tables of an array of tables (`[[vehicle]]`), each with its index for error messages.
    package mutating func tables(_ key: String) throws(ConfigError) -> [(String, [String: ConfigValue])] {
        known.insert(key)
        guard let value = lookup(key) else { return [] }
        guard case .array(let items) = value else { throw mismatch(key, file, "an array of tables", value) }
        var out: [(String, [String: ConfigValue])] = []
        for (i, item) in items.enumerated() {
            guard case .table(let t) = item else { throw mismatch("\(key)[\(i)]", file, "a table", item) }
            out.append(("\(key)[\(i)]", t))
        }
        return out
    }

    /// Throws for the first key in the file that no reader asked for.
    ///
    /// - Parameter owned: the top-level keys this process reads (``ConfigTables``); the other
    ///   processes' tables are theirs to check. A top-level key no process owns is unknown.
    package func rejectUnknownKeys(owned: Set<String> = ConfigTables.all) throws(ConfigError) {
        try check(.table(root), path: "", owned: owned)
    }

    private func check(_ node: ConfigValue, path: String, owned: Set<String>) throws(ConfigError) {
        guard case .table(let t) = node else { return }
        for key in t.keys.sorted() {
            let full = path.isEmpty ? key : "\(path).\(key)"
            if known.contains(full) { continue }
            if path.isEmpty, !owned.contains(key), ConfigTables.all.contains(key) { continue }
            guard known.contains(where: { $0.hasPrefix(full + ".") }), let child = t[key] else {
                throw ConfigError(key: full, file: file, problem: "unknown key")
            }
            try check(child, path: full, owned: owned)
        }
    }

    private func mismatch(_ key: String, _ source: String?, _ expected: String, _ found: ConfigValue) -> ConfigError {
        if source == nil, case .string(let s) = found {
            return ConfigError(key: key, file: nil, problem: "expected \(expected), got \"\(s)\"")
        }
        return ConfigError(key: key, file: source, problem: "expected \(expected), found \(found.typeName)")
    }
}
