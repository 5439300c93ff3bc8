// SPDX-License-Identifier: MIT

/// Where `logbook-web` listens: `HOST:PORT`, `[IPv6]:PORT`.
package struct ListenAddress: Sendable, Hashable, CustomStringConvertible {
    package var host: String
    package var port: Int

    package init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `127.0.0.1:8080`, `localhost:8080`, `[::1]:8080`, `0.0.0.0:8080`; nil otherwise.
    /// Port 0 asks for a free port (tests).
    package init?(parsing text: String) {
        let hostPart: Substring, portPart: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { return nil }
            hostPart = text[text.index(after: text.startIndex)..<close]
            portPart = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else { return nil }
            hostPart = text[..<colon]
            portPart = text[text.index(after: colon)...]
        }
        guard !hostPart.isEmpty, !hostPart.contains(where: { $0 == " " || $0 == "/" }),
            let port = Int(portPart), (0...65_535).contains(port)
        else { return nil }
        self.init(host: String(hostPart), port: port)
    }

    /// True for addresses only this machine can reach: 127.0.0.0/8, `::1`, `localhost`.
    /// Anything else (a LAN address, `0.0.0.0`, `::`) needs a password.
    package var isLoopback: Bool { Self.isLoopbackHost(host) }

    /// True for a loopback host name or literal.
    package static func isLoopbackHost(_ host: String) -> Bool {
        let h = host.lowercased()
        if h == "localhost" || h == "::1" || h == "0:0:0:0:0:0:0:1" || h.hasSuffix(".localhost") { return true }
        let parts = h.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts.allSatisfy({ UInt8($0) != nil }) else { return false }
        return parts[0] == "127"
    }

    package var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
