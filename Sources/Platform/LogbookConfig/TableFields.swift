// SPDX-License-Identifier: MIT

/// Typed access to the keys of one table of an array of tables, naming `path.key` in errors.
package struct TableFields {
    package let path: String
    package let table: [String: ConfigValue]
    package let file: String?
    private var used: Set<String> = []

    package init(path: String, table: [String: ConfigValue], file: String?) {
        self.path = path
        self.table = table
        self.file = file
    }

    private func fail(_ key: String, _ problem: String) -> ConfigError {
        ConfigError(key: "\(path).\(key)", file: file, problem: problem)
    }

    /// The raw value of `key`, if set (marking it used).
    package mutating func value(_ key: String) -> ConfigValue? {
        used.insert(key)
        return table[key]
    }

    package mutating func string(_ key: String) throws(ConfigError) -> String? {
        used.insert(key)
        guard let v = table[key] else { return nil }
        guard case .string(let s) = v else { throw fail(key, "expected a string, found \(v.typeName)") }
        return s
    }

    package mutating func requiredString(_ key: String) throws(ConfigError) -> String {
        guard let s = try string(key), !s.isEmpty else { throw fail(key, "is required") }
        return s
    }

    package mutating func integer(_ key: String, in range: ClosedRange<Int>) throws(ConfigError) -> Int? {
        used.insert(key)
        guard let v = table[key] else { return nil }
        guard case .integer(let i) = v else { throw fail(key, "expected an integer, found \(v.typeName)") }
        guard range.contains(i) else { throw fail(key, "\(i) is out of range \(range.lowerBound)…\(range.upperBound)") }
        return i
    }

    package mutating func requiredInteger(_ key: String, in range: ClosedRange<Int>) throws(ConfigError) -> Int {
        guard let i = try integer(key, in: range) else { throw fail(key, "is required") }
        return i
    }

    package mutating func bool(_ key: String) throws(ConfigError) -> Bool? {
        used.insert(key)
        guard let v = table[key] else { return nil }
        guard case .bool(let b) = v else { throw fail(key, "expected a boolean, found \(v.typeName)") }
        return b
    }

    package mutating func double(_ key: String, in range: ClosedRange<Double>) throws(ConfigError) -> Double? {
        used.insert(key)
        guard let v = table[key] else { return nil }
        let d: Double
        switch v {
        case .double(let x): d = x
        case .integer(let i): d = Double(i)
        default: throw fail(key, "expected a number, found \(v.typeName)")
        }
        guard range.contains(d) else { throw fail(key, "\(d) is out of range \(range.lowerBound)…\(range.upperBound)") }
        return d
    }

    package func rejectUnknown() throws(ConfigError) {
        if let key = table.keys.sorted().first(where: { !used.contains($0) }) { throw fail(key, "unknown key") }
    }
}
