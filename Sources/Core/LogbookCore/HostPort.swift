// SPDX-License-Identifier: MIT

/// A TCP endpoint as a config file names it: `HOST:PORT`, `HOST` or `[V6ADDR]:PORT` (gpsd,
/// an OBD adapter on Wi-Fi, a listening address).
public struct HostPort: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: String

    public init(host: String, port: String) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT`, `HOST` (then `defaultPort`) or `[V6ADDR]:PORT`; nil when empty or
    /// malformed.
    public init?(parsing text: String, defaultPort: UInt16) {
        guard !text.isEmpty else { return nil }
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            if rest.isEmpty {
                port = String(defaultPort)
            } else {
                guard rest.hasPrefix(":"), let p = UInt16(rest.dropFirst()), p > 0 else { return nil }
                port = String(p)
            }
        } else if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon])
            guard !host.isEmpty, let p = UInt16(text[text.index(after: colon)...]), p > 0 else {
                return nil
            }
            port = String(p)
        } else {
            host = text
            port = String(defaultPort)
        }
        guard !host.isEmpty else { return nil }
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
