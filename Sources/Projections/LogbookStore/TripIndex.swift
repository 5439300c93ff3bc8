// SPDX-License-Identifier: MIT
internal import GRDB
internal import LogbookCore
internal import LogbookJournal

/// The trip index: a rebuildable SQLite projection of the journal (trips with their
/// summaries, points in chunks, gaps, every user entry) that the CLI, the exports and the web
/// app read through ``TripCatalog``.
///
/// Nobody holds it open for long and the daemon never touches it: a reader opens it, which
/// catches it up with the journal (O(new records)), and then queries it. Its file is a cache
/// (`/var/cache/logbook/index.sqlite` by default): damaged, foreign or out-of-date files are
/// rebuilt, never trusted. See `docs/index.md` for the schema and the consistency rules.
public final class TripIndex: Sendable {
    /// Tunables; the defaults suit the CLI.
    public struct Options: Sendable {
        /// No-fix gaps up to this long are reported as bridged (`[trip] bridge_gap_s`).
        public var maxBridgedGap: Double = 15 * 60
        /// How long to wait for another process's write (a catch-up, a rebuild) to finish.
        public var busyTimeout: Double = 10
        /// Records per catch-up transaction (the transaction ends at a segment's end).
        public var recordsPerTransaction = 20_000
        /// Creates the defaults.
        public init() {}
    }

    /// The database file.
    public let path: String
    /// The journal it projects.
    public let journalDirectory: String
    public let options: Options
    /// Why the file was replaced when it was opened (not SQLite, another application's, a
    /// newer schema, damaged), or nil.
    public let replacedBecause: String?
    let pool: DatabasePool

    private init(path: String, journalDirectory: String, options: Options, pool: DatabasePool, replacedBecause: String?) {
        self.path = path
        self.journalDirectory = journalDirectory
        self.options = options
        self.pool = pool
        self.replacedBecause = replacedBecause
    }

    /// Opens (creating or replacing as needed) the index at `path` for the journal in
    /// `journalDirectory`. Does not read the journal: call ``catchUp(progress:)`` next.
    ///
    /// - Throws: ``TripIndexError/unusable(_:_:)`` when the file or its directory cannot be
    ///   created or opened (permissions).
    public static func open(path: String, journalDirectory: String, options: Options = Options()) throws(TripIndexError) -> TripIndex {
        var reason: String?
        for attempt in 0..<2 {
            if attempt == 1 { try IndexFile.discard(path) }
            _ = try IndexFile.prepare(path)
            if let why = IndexFile.foreignContent(path) {
                reason = why
                continue
            }
            do {
                let pool = try DatabasePool(path: path, configuration: configuration(options))
                if let why = try check(pool) {
                    reason = why
                    try pool.close()
                    continue
                }
                try IndexSchema.migrator.migrate(pool)
                return TripIndex(path: path, journalDirectory: journalDirectory, options: options, pool: pool, replacedBecause: reason)
            } catch let e as TripIndexError {
                throw e
            } catch let e as DatabaseError where Self.isDamage(e) {
                reason = "SQLite reports \(e.resultCode): \(e.message ?? "")"
            } catch let e as DatabaseError where e.resultCode == .SQLITE_BUSY {
                throw .busy(path)
            } catch {
                throw .unusable(path, "\(error)")
            }
        }
        throw .damaged(reason ?? "cannot be opened")
    }

    /// Removes the file at `path` (and its WAL) and opens a new, empty index there: for a
    /// file found damaged while it was being read.
    public static func replace(path: String, journalDirectory: String, options: Options = Options()) throws(TripIndexError) -> TripIndex {
        try IndexFile.discard(path)
        return try open(path: path, journalDirectory: journalDirectory, options: options)
    }

    /// Nil when the file is this application's index (or empty); else why it is not.
    private static func check(_ pool: DatabasePool) throws -> String? {
        try pool.writeWithoutTransaction { db -> String? in
            let id = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
            let tables = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0
            if id == 0, tables == 0 {
                try db.execute(sql: "PRAGMA application_id = \(IndexSchema.applicationID)")
                return nil
            }
            guard id == IndexSchema.applicationID else {
                return "it is another application's SQLite database (application_id \(id))"
            }
            if try IndexSchema.migrator.hasBeenSuperseded(db) {
                return "a newer version wrote it (schema \(try IndexSchema.migrator.appliedIdentifiers(db).sorted().last ?? "?"))"
            }
            // Structural damage in the pages every query needs shows here; a damaged chunk
            // shows when it is read (its CRC), and the caller rebuilds then.
            _ = try Row.fetchAll(db, sql: "SELECT * FROM index_state")
            return nil
        }
    }

    static func configuration(_ options: Options) -> Configuration {
        var config = Configuration()
        config.busyMode = .timeout(options.busyTimeout)
        config.label = "logbook.index"
        config.prepareDatabase { db in
            // Before the first table exists (a no-op later): a point chunk is ~3 KiB, one row
            // per 4 KiB page would waste a quarter of the file; 16 KiB pages hold five.
            try db.execute(sql: "PRAGMA page_size = 16384")
            // A cache: after a power cut the last commits may be lost, never the file's
            // consistency, and the next open catches up again. Spares the SD card.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            try db.execute(sql: "PRAGMA journal_size_limit = \(32 << 20)")
        }
        return config
    }

    static func isDamage(_ e: DatabaseError) -> Bool {
        [.SQLITE_CORRUPT, .SQLITE_NOTADB, .SQLITE_FORMAT].contains(e.resultCode)
    }

    /// Runs `body`, turning SQLite errors into ``TripIndexError``.
    func mapping<T>(_ body: () throws -> T) throws(TripIndexError) -> T {
        do {
            return try body()
        } catch let e as TripIndexError {
            throw e
        } catch let e as DatabaseError where Self.isDamage(e) {
            throw .damaged("SQLite reports \(e.resultCode): \(e.message ?? "")")
        } catch let e as DatabaseError where e.resultCode == .SQLITE_BUSY {
            throw .busy(path)
        } catch let e as JournalTail.PositionMismatch {
            throw .journal(e.description)
        } catch let e as JournalError {
            throw .journal(e.description)
        } catch {
            throw .unusable(path, "\(error)")
        }
    }
}
