// SPDX-License-Identifier: MIT

/// A configuration problem, reported as one line naming the key.
public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The dotted key (`gpsd.address`), the environment variable, or the flag at fault.
    public var key: String?
    /// The file the key came from, if any.
    public var file: String?
    public var problem: String

    public init(key: String?, file: String?, problem: String) {
        self.key = key.map { Self.bounded($0, to: 200) }
        self.file = file
        self.problem = Self.bounded(problem, to: Self.maximumProblemLength)
    }

    /// The longest ``problem`` kept, in bytes: every message that quotes a bad value (from any
    /// reader of the file) goes through `init`, so a 50 MB value is never echoed whole.
    public static let maximumProblemLength = 400

    /// `text` if short enough, else its head and tail around `…(N bytes)…`, cut at characters.
    public static func bounded(_ text: String, to limit: Int) -> String {
        let count = text.utf8.count
        guard count > limit else { return text }
        let keep = max(8, (limit - 24) / 2)
        var head = ""
        var tail = ""
        for c in text {
            guard head.utf8.count + c.utf8.count <= keep else { break }
            head.append(c)
        }
        for c in text.reversed() {
            guard tail.utf8.count + c.utf8.count <= keep / 2 else { break }
            tail.insert(c, at: tail.startIndex)
        }
        return head + "…(\(count) bytes)…" + tail
    }

    /// `gpsd.address: expected a string, found an integer (in /etc/logbook/logbookd.toml)`.
    public var description: String {
        var s = key.map { "\($0): \(problem)" } ?? problem
        if let file { s += " (in \(file))" }
        return s
    }
}
