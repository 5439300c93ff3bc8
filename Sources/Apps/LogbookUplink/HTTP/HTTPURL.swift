// SPDX-License-Identifier: MIT
/// An `http://host[:port][/path][?query]` URL, as the HTTP sinks are configured with it.
public struct HTTPURL: Sendable, Hashable {
    public var host: String
    public var port: Int
    /// The path with its query (`/pub?u=me`), `/` when none.
    public var target: String

    /// Why a URL was refused.
    public struct Problem: Error, Sendable {
        public var message: String
    }

    /// Parses `text`; a problem for anything but plain `http://`.
    public static func parse(_ text: String) -> Result<HTTPURL, Problem> {
        if text.hasPrefix("https://") {
            return .failure(Problem(message: "https is not supported by the uplink's HTTP client; use http:// (on a LAN or behind a local TLS proxy)"))
        }
        guard text.hasPrefix("http://") else { return .failure(Problem(message: "expected an http:// URL, got \"\(text)\"")) }
        let rest = text.dropFirst(7)
        let slash = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        var authority = String(rest[..<slash])
        var target = String(rest[slash...])
        if target.isEmpty { target = "/" } else if target.hasPrefix("?") { target = "/" + target }
        if authority.contains("@") { return .failure(Problem(message: "put credentials in the sink's username/password_file keys, not the URL")) }
        var port = 80
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return .failure(Problem(message: "bad IPv6 address in \"\(text)\"")) }
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") {
                guard let p = Int(after.dropFirst()), (1...65535).contains(p) else { return .failure(Problem(message: "bad port in \"\(text)\"")) }
                port = p
            }
            authority = String(authority[authority.index(after: authority.startIndex)..<close])
        } else if let colon = authority.lastIndex(of: ":") {
            guard let p = Int(authority[authority.index(after: colon)...]), (1...65535).contains(p) else { return .failure(Problem(message: "bad port in \"\(text)\"")) }
            port = p
            authority = String(authority[..<colon])
        }
        guard !authority.isEmpty else { return .failure(Problem(message: "no host in \"\(text)\"")) }
        return .success(HTTPURL(host: authority, port: port, target: target))
    }

    /// `host[:port]` for the Host header.
    var hostHeader: String {
        let h = host.contains(":") ? "[\(host)]" : host
        return port == 80 ? h : "\(h):\(port)"
    }
}
