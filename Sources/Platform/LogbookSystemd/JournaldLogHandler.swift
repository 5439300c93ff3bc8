// SPDX-License-Identifier: MIT
internal import CLogbookSystemd
public import Logging
#if canImport(Glibc)
    internal import Glibc
#endif

/// A swift-log handler that writes structured entries to journald with `sd_journal_sendv`.
///
/// Metadata keys become upper-case journal fields (`trip.id` → `TRIP_ID`), so
/// `journalctl TRIP_ID=12` finds a trip's messages.
public struct JournaldLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let identifier: String

    /// - Parameters:
    ///   - label: the logger's label, sent as `LOGGER`.
    ///   - identifier: `SYSLOG_IDENTIFIER`, e.g. `logbookd`.
    public init(label: String, identifier: String) {
        self.label = label
        self.identifier = identifier
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields: [String] = [
            "MESSAGE=\(event.message)",
            "PRIORITY=\(Self.priority(event.level))",
            "SYSLOG_IDENTIFIER=\(identifier)",
            "LOGGER=\(label)",
            "CODE_FILE=\(event.file)",
            "CODE_LINE=\(event.line)",
            "CODE_FUNC=\(event.function)",
        ]
        var all = metadata
        if let provided = metadataProvider?.get() { all.merge(provided) { _, new in new } }
        if let extra = event.metadata { all.merge(extra) { _, new in new } }
        for (key, value) in all {
            if let name = Self.fieldName(key) { fields.append("\(name)=\(value)") }
        }
        Self.send(fields)
    }

    /// Maps a swift-log key to a valid journal field name, or nil if nothing is left.
    ///
    /// journald accepts only `A–Z`, `0–9` and `_`, not starting with `_` or a digit.
    static func fieldName(_ key: String) -> String? {
        var out = ""
        for c in key.unicodeScalars {
            switch c {
            case "a"..."z": out.unicodeScalars.append(Unicode.Scalar(c.value - 32) ?? c)
            case "A"..."Z", "0"..."9": out.unicodeScalars.append(c)
            default: out.append("_")
            }
        }
        while out.first == "_" || out.first?.isNumber == true { out.removeFirst() }
        return out.isEmpty ? nil : out
    }

    static func priority(_ level: Logger.Level) -> Int32 {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    private static func send(_ fields: [String]) {
        let copies = fields.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        var vectors = copies.map { iovec(iov_base: UnsafeMutableRawPointer($0), iov_len: $0.map { strlen($0) } ?? 0) }
        _ = vectors.withUnsafeMutableBufferPointer { buf in
            sd_journal_sendv(buf.baseAddress, Int32(buf.count))
        }
    }
}
