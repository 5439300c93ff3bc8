// SPDX-License-Identifier: MIT
public import LogbookCore

/// What the gpsd source reports to the pipeline.
public enum GPSDEvent: Sendable, Hashable {
    /// A session with gpsd is open and watching.
    case connected(GPSDEndpoint)
    /// The session ended or could not be opened; the source retries on its own.
    case disconnected(reason: String)
    /// A new position fix (mode ≥ 2, lat/lon set and finite, not seen before).
    case fix(Fix)
    /// A TPV report without a usable position: the receiver has no fix.
    case noFix(mode: FixMode, time: GPSTime?)
}

/// Where gpsd listens.
public struct GPSDEndpoint: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: String

    public init(host: String = "127.0.0.1", port: String = "2947") {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT`, `HOST` or `[V6ADDR]:PORT`; nil when empty or malformed.
    public init?(parsing text: String) {
        guard !text.isEmpty else { return nil }
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            if rest.isEmpty {
                port = "2947"
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
            port = "2947"
        }
        guard !host.isEmpty else { return nil }
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// Counters of what the source has seen since it started.
public struct GPSDStatistics: Sendable, Hashable {
    /// TPV reports read.
    public var reports: Int = 0
    /// Distinct fixes delivered.
    public var fixes: Int = 0
    /// TPV reports for an epoch already delivered (gpsd repeats TPVs).
    public var duplicates: Int = 0
    /// TPV reports with mode < 2.
    public var noFix: Int = 0
    /// TPV reports claiming a fix but without a finite position or time.
    public var invalid: Int = 0
    /// Successful connections (the first one included).
    public var connections: Int = 0

    public init() {}
}
