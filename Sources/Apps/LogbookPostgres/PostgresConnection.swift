// SPDX-License-Identifier: MIT
internal import CLogbookPQ
public import LogbookUplink
#if canImport(Glibc)
    import Glibc
#endif

/// Opens libpq connections to the fleet store.
public struct PostgresConnector: SQLConnector {
    /// libpq connection string or URI.
    public var url: String
    /// Overrides a password in `url` (from a credentials file).
    public var password: String?
    /// Seconds libpq waits for a connection.
    public var connectTimeout: Int

    public init(url: String, password: String? = nil, connectTimeout: Int = 10) {
        self.url = url
        self.password = password
        self.connectTimeout = connectTimeout
    }

    public func connect() throws(UplinkError) -> any SQLConnection {
        try PostgresConnection(url: url, password: password, connectTimeout: connectTimeout)
    }
}

/// One libpq session. Blocking: used from one thread (the sink's, or the CLI's).
public final class PostgresConnection: SQLConnection {
    private let conn: OpaquePointer

    /// Connects; throws ``UplinkError/connection(_:)`` with libpq's message when it cannot.
    public init(url: String, password: String? = nil, connectTimeout: Int = 10) throws(UplinkError) {
        var keys = ["dbname", "connect_timeout", "application_name"]
        var values = [url, String(connectTimeout), "logbook-uplink"]
        if let password {
            keys.append("password")
            values.append(password)
        }
        let c = Self.withCStrings(keys) { k in Self.withCStrings(values) { v in PQconnectdbParams(k, v, 1) } }
        guard let c else { throw .connection("libpq: out of memory") }
        guard PQstatus(c) == CONNECTION_OK else {
            let message = Self.clean(PQerrorMessage(c))
            PQfinish(c)
            throw .connection("postgres: \(message)")
        }
        cpq_silence_notices(c)
        conn = c
    }

    deinit { PQfinish(conn) }

    public var isHealthy: Bool { PQstatus(conn) == CONNECTION_OK }

    @discardableResult
    public func execute(_ sql: String, _ parameters: [String?]) throws(UplinkError) -> [[String?]] {
        let result: OpaquePointer?
        if parameters.isEmpty {
            result = PQexec(conn, sql)  // simple protocol: several statements allowed (migrations)
        } else {
            result = Self.withOptionalCStrings(parameters) { p in
                PQexecParams(conn, sql, Int32(parameters.count), nil, p, nil, nil, 0)
            }
        }
        guard let result else { throw .connection("postgres: \(Self.clean(PQerrorMessage(conn)))") }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let message = Self.clean(PQresultErrorMessage(result))
            if PQstatus(conn) != CONNECTION_OK { throw .connection("postgres: \(message)") }
            throw .rejected("postgres: \(message)")
        }
        var rows: [[String?]] = []
        let n = PQntuples(result), f = PQnfields(result)
        rows.reserveCapacity(Int(n))
        for r in 0..<n {
            var row: [String?] = []
            for c in 0..<f {
                row.append(PQgetisnull(result, r, c) != 0 ? nil : String(cString: PQgetvalue(result, r, c)))
            }
            rows.append(row)
        }
        return rows
    }

    public func copy(_ sql: String, data: [UInt8]) throws(UplinkError) {
        guard let start = PQexec(conn, sql) else { throw .connection("postgres: \(Self.clean(PQerrorMessage(conn)))") }
        let status = PQresultStatus(start)
        let startMessage = Self.clean(PQresultErrorMessage(start))
        PQclear(start)
        guard status == PGRES_COPY_IN else {
            if PQstatus(conn) != CONNECTION_OK { throw .connection("postgres: \(startMessage)") }
            throw .rejected("postgres: \(startMessage)")
        }
        // One call per 1 MiB: libpq buffers and sends as the socket takes it (blocking connection).
        var offset = 0
        var sent = true
        while offset < data.count, sent {
            let n = min(1 << 20, data.count - offset)
            sent = data.withUnsafeBytes { raw in
                PQputCopyData(conn, raw.baseAddress!.advanced(by: offset).assumingMemoryBound(to: CChar.self), Int32(n)) == 1
            }
            offset += n
        }
        let ended = PQputCopyEnd(conn, sent ? nil : "logbook-uplink: sending failed") == 1
        var failure: String?
        while let result = PQgetResult(conn) {
            if PQresultStatus(result) != PGRES_COMMAND_OK { failure = failure ?? Self.clean(PQresultErrorMessage(result)) }
            PQclear(result)
        }
        if !sent || !ended || PQstatus(conn) != CONNECTION_OK {
            throw .connection("postgres: \(failure ?? Self.clean(PQerrorMessage(conn)))")
        }
        if let failure { throw .rejected("postgres: \(failure)") }
    }

    private static func clean(_ p: UnsafePointer<CChar>?) -> String {
        guard let p else { return "unknown error" }
        let s = String(cString: p)
        return s.split(separator: "\n").map { $0.drop { $0 == " " || $0 == "\t" } }.joined(separator: "; ")
    }

    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
        withOptionalCStrings(strings.map { Optional($0) }) { p in
            var terminated = Array(UnsafeBufferPointer(start: p, count: strings.count)) + [nil]
            return terminated.withUnsafeMutableBufferPointer { b in
                // This force-unwrap is safe since the buffer holds at least the nil terminator.
                body(UnsafePointer(b.baseAddress!))
            }
        }
    }

    private static func withOptionalCStrings<R>(_ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
        let copies: [UnsafeMutablePointer<CChar>?] = strings.map { $0.flatMap { strdup($0) } }
        defer { for c in copies { free(c) } }
        var pointers: [UnsafePointer<CChar>?] = copies.map { $0.map { UnsafePointer($0) } }
        if pointers.isEmpty { pointers.append(nil) }
        return pointers.withUnsafeBufferPointer { b in
            // This force-unwrap is safe since the array is never empty.
            body(b.baseAddress!)
        }
    }
}
