// SPDX-License-Identifier: MIT

/// A configuration problem, reported as one line naming the key.
public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The dotted key (`gpsd.address`), the environment variable, or the flag at fault.
    public var key: String?
    /// The file the key came from, if any.
    public var file: String?
    public var problem: String

    public init(key: String?, file: String?, problem: String) {
        self.key = key
        self.file = file
        self.problem = problem
    }

    /// `gpsd.address: expected a string, found an integer (in /etc/logbook/logbookd.toml)`.
    public var description: String {
        var s = key.map { "\($0): \(problem)" } ?? problem
        if let file { s += " (in \(file))" }
        return s
    }
}
